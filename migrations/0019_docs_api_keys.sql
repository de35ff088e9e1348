CREATE TABLE `docs_api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`portal_id` integer NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`key_hash` text NOT NULL,
	`key_start` text NOT NULL,
	`origins` text DEFAULT '[]' NOT NULL,
	`created_at` text NOT NULL,
	`revoked_at` text,
	FOREIGN KEY (`portal_id`) REFERENCES `portals`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `docs_api_keys_hash` ON `docs_api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `docs_api_keys_portal` ON `docs_api_keys` (`portal_id`);