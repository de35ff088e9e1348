ALTER TABLE `operations` ADD `chunk` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `operations` ADD `slice_offset` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `operations` ADD `slice_length` integer DEFAULT 0 NOT NULL;