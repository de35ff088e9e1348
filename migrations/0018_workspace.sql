CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`organisation_id` integer,
	`portal_id` integer,
	`at` text NOT NULL,
	`actor_type` text NOT NULL,
	`actor` text NOT NULL,
	`token_id` integer,
	`action` text NOT NULL,
	`target` text,
	`details` text
);
--> statement-breakpoint
CREATE INDEX `audit_org_at` ON `audit_log` (`organisation_id`,`at`);--> statement-breakpoint
CREATE INDEX `audit_at` ON `audit_log` (`at`);--> statement-breakpoint
CREATE TABLE `invitations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`organisation_id` integer NOT NULL,
	`email` text NOT NULL,
	`role` text NOT NULL,
	`token_hash` text NOT NULL,
	`invited_by` integer,
	`created_at` text NOT NULL,
	`expires_at` integer NOT NULL,
	`accepted_at` text,
	FOREIGN KEY (`organisation_id`) REFERENCES `organisations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`invited_by`) REFERENCES `writers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invitations_token_hash_unique` ON `invitations` (`token_hash`);--> statement-breakpoint
CREATE INDEX `invitations_org` ON `invitations` (`organisation_id`);--> statement-breakpoint
CREATE TABLE `memberships` (
	`organisation_id` integer NOT NULL,
	`writer_id` integer NOT NULL,
	`role` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`organisation_id`, `writer_id`),
	FOREIGN KEY (`organisation_id`) REFERENCES `organisations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`writer_id`) REFERENCES `writers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `memberships_writer` ON `memberships` (`writer_id`);--> statement-breakpoint
CREATE TABLE `stripe_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`received_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `writer_sessions` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`writer_id` integer NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`writer_id`) REFERENCES `writers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `writer_sessions_writer` ON `writer_sessions` (`writer_id`);--> statement-breakpoint
CREATE TABLE `writers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `writers_email_unique` ON `writers` (`email`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_magic_links` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`portal_id` integer,
	`email` text NOT NULL,
	`return_to` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`portal_id`) REFERENCES `portals`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_magic_links`("token_hash", "portal_id", "email", "return_to", "expires_at", "used_at") SELECT "token_hash", "portal_id", "email", "return_to", "expires_at", "used_at" FROM `magic_links`;--> statement-breakpoint
DROP TABLE `magic_links`;--> statement-breakpoint
ALTER TABLE `__new_magic_links` RENAME TO `magic_links`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE TABLE `__new_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`portal_id` integer,
	`to_address` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`portal_id`) REFERENCES `portals`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_outbox`("id", "portal_id", "to_address", "subject", "text", "created_at") SELECT "id", "portal_id", "to_address", "subject", "text", "created_at" FROM `outbox`;--> statement-breakpoint
DROP TABLE `outbox`;--> statement-breakpoint
ALTER TABLE `__new_outbox` RENAME TO `outbox`;--> statement-breakpoint
CREATE INDEX `outbox_portal` ON `outbox` (`portal_id`);--> statement-breakpoint
CREATE INDEX `outbox_to` ON `outbox` (`to_address`);--> statement-breakpoint
ALTER TABLE `portal_tokens` ADD `name` text DEFAULT 'portal token' NOT NULL;--> statement-breakpoint
ALTER TABLE `portal_tokens` ADD `scopes` text DEFAULT '["manage"]' NOT NULL;--> statement-breakpoint
ALTER TABLE `portal_tokens` ADD `expires_at` text;--> statement-breakpoint
ALTER TABLE `portal_tokens` ADD `last_used_at` text;--> statement-breakpoint
ALTER TABLE `portal_tokens` ADD `created_by` integer;--> statement-breakpoint
ALTER TABLE `portals` ADD `organisation_id` integer;--> statement-breakpoint
ALTER TABLE `organisations` ADD `trial_ends_at` text;--> statement-breakpoint
ALTER TABLE `organisations` ADD `stripe_customer_id` text;--> statement-breakpoint
ALTER TABLE `organisations` ADD `stripe_subscription_id` text;