CREATE TABLE `git_connections` (
	`portal_id` integer PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`api_url` text NOT NULL,
	`repository` text NOT NULL,
	`installation_id` integer,
	`production_branch` text NOT NULL,
	`paths` text NOT NULL,
	`previews` text NOT NULL,
	`releases` integer NOT NULL,
	`blocking` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`portal_id`) REFERENCES `portals`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `git_connections_repository` ON `git_connections` (`provider`,`repository`);--> statement-breakpoint
CREATE TABLE `git_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`provider` text NOT NULL,
	`delivery_id` text NOT NULL,
	`event` text NOT NULL,
	`portal_id` integer,
	`status` text NOT NULL,
	`result` text,
	`received_at` text NOT NULL,
	`finished_at` text,
	FOREIGN KEY (`portal_id`) REFERENCES `portals`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `git_deliveries_delivery` ON `git_deliveries` (`provider`,`delivery_id`,`portal_id`);--> statement-breakpoint
CREATE TABLE `git_previews` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`portal_id` integer NOT NULL,
	`slug` text NOT NULL,
	`branch` text NOT NULL,
	`commit_sha` text NOT NULL,
	`release_id` integer,
	`definitions` text NOT NULL,
	`pull_request` integer,
	`comment_id` text,
	`closed_at` text,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`portal_id`) REFERENCES `portals`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `git_previews_portal_slug` ON `git_previews` (`portal_id`,`slug`);