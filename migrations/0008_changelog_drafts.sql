CREATE TABLE `changelog_drafts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`portal_id` integer NOT NULL,
	`api_id` integer NOT NULL,
	`from_version_id` integer NOT NULL,
	`to_version_id` integer NOT NULL,
	`type` text NOT NULL,
	`version` text NOT NULL,
	`date` text NOT NULL,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`bullets` text NOT NULL,
	`status` text NOT NULL,
	`created_at` text NOT NULL,
	`reviewed_at` text,
	FOREIGN KEY (`portal_id`) REFERENCES `portals`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`api_id`) REFERENCES `apis`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`from_version_id`) REFERENCES `versions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`to_version_id`) REFERENCES `versions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `changelog_drafts_pair` ON `changelog_drafts` (`api_id`,`from_version_id`,`to_version_id`);--> statement-breakpoint
CREATE INDEX `changelog_drafts_portal_status` ON `changelog_drafts` (`portal_id`,`status`);