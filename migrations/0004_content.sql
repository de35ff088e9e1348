CREATE TABLE `content_assets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`release_id` integer NOT NULL,
	`path` text NOT NULL,
	`sha256` text NOT NULL,
	`content_type` text NOT NULL,
	FOREIGN KEY (`release_id`) REFERENCES `content_releases`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `content_assets_release` ON `content_assets` (`release_id`);--> statement-breakpoint
CREATE INDEX `content_assets_sha` ON `content_assets` (`sha256`);--> statement-breakpoint
CREATE TABLE `content_live` (
	`portal_id` integer PRIMARY KEY NOT NULL,
	`release_id` integer NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`portal_id`) REFERENCES `portals`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`release_id`) REFERENCES `content_releases`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `content_pages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`release_id` integer NOT NULL,
	`kind` text NOT NULL,
	`slug` text NOT NULL,
	`locale` text NOT NULL,
	`title` text NOT NULL,
	`description` text,
	`tags` text NOT NULL,
	`labels` text NOT NULL,
	`operations` text NOT NULL,
	`position` integer NOT NULL,
	`file` text NOT NULL,
	`chunk_key` text NOT NULL,
	`slice_offset` integer NOT NULL,
	`slice_length` integer NOT NULL,
	`change_type` text,
	`change_version` text,
	`change_date` text,
	`change_api` text,
	FOREIGN KEY (`release_id`) REFERENCES `content_releases`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `content_pages_release_page` ON `content_pages` (`release_id`,`kind`,`locale`,`slug`);--> statement-breakpoint
CREATE TABLE `content_previews` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`portal_id` integer NOT NULL,
	`release_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`portal_id`) REFERENCES `portals`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`release_id`) REFERENCES `content_releases`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `content_previews_token_hash_unique` ON `content_previews` (`token_hash`);--> statement-breakpoint
CREATE INDEX `content_previews_portal` ON `content_previews` (`portal_id`);--> statement-breakpoint
CREATE TABLE `content_releases` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`portal_id` integer NOT NULL,
	`digest` text NOT NULL,
	`bundle_sha256` text NOT NULL,
	`config` text NOT NULL,
	`glossary` text NOT NULL,
	`checks` text NOT NULL,
	`pages` integer NOT NULL,
	`steps` integer NOT NULL,
	`changelog` integer NOT NULL,
	`status` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`portal_id`) REFERENCES `portals`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `content_releases_portal` ON `content_releases` (`portal_id`);