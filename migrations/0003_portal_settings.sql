ALTER TABLE `portals` ADD `origin` text;--> statement-breakpoint
ALTER TABLE `portals` ADD `embed_origins` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `portals` ADD `external_images` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `versions` ADD `media_type` text;