CREATE TABLE `magic_links` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`portal_id` integer NOT NULL,
	`email` text NOT NULL,
	`return_to` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`portal_id`) REFERENCES `portals`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`portal_id` integer NOT NULL,
	`to_address` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`portal_id`) REFERENCES `portals`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `outbox_portal` ON `outbox` (`portal_id`);--> statement-breakpoint
CREATE TABLE `portal_access` (
	`portal_id` integer PRIMARY KEY NOT NULL,
	`settings` text NOT NULL,
	`password_hash` text,
	`jwt_secret` text,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`portal_id`) REFERENCES `portals`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `sign_in_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`portal_id` integer NOT NULL,
	`kind` text NOT NULL,
	`ip` text NOT NULL,
	`at` integer NOT NULL,
	FOREIGN KEY (`portal_id`) REFERENCES `portals`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `sign_in_attempts_portal_at` ON `sign_in_attempts` (`portal_id`,`kind`,`at`);--> statement-breakpoint
CREATE INDEX `sign_in_attempts_ip` ON `sign_in_attempts` (`portal_id`,`kind`,`ip`,`at`);--> statement-breakpoint
CREATE TABLE `used_tokens` (
	`portal_id` integer NOT NULL,
	`token_key` text NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`portal_id`, `token_key`),
	FOREIGN KEY (`portal_id`) REFERENCES `portals`(`id`) ON UPDATE no action ON DELETE no action
);
