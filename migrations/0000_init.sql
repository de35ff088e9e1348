CREATE TABLE `portal_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`portal_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`portal_id`) REFERENCES `portals`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `portal_tokens_token_hash_unique` ON `portal_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `portal_tokens_portal` ON `portal_tokens` (`portal_id`);--> statement-breakpoint
CREATE TABLE `portals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`plan` text DEFAULT 'trial' NOT NULL,
	`trial_ends_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `portals_slug_unique` ON `portals` (`slug`);--> statement-breakpoint
CREATE TABLE `apis` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`portal_id` integer NOT NULL,
	`slug` text NOT NULL,
	`title` text NOT NULL,
	`live_version_id` integer,
	`layout` text DEFAULT 'page-per-operation' NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`portal_id`) REFERENCES `portals`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `apis_portal_slug` ON `apis` (`portal_id`,`slug`);--> statement-breakpoint
CREATE TABLE `operations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`version_id` integer NOT NULL,
	`position` integer NOT NULL,
	`slug` text NOT NULL,
	`kind` text NOT NULL,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`operation_id` text,
	`summary` text,
	`tag` text NOT NULL,
	`deprecated` integer NOT NULL,
	FOREIGN KEY (`version_id`) REFERENCES `versions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `operations_version_slug` ON `operations` (`version_id`,`slug`);--> statement-breakpoint
CREATE INDEX `operations_version_tag` ON `operations` (`version_id`,`tag`);--> statement-breakpoint
CREATE TABLE `versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`api_id` integer NOT NULL,
	`label` text NOT NULL,
	`sha256` text NOT NULL,
	`model_key` text NOT NULL,
	`source_version` text NOT NULL,
	`title` text NOT NULL,
	`operations` integer NOT NULL,
	`schemas` integer NOT NULL,
	`security_schemes` integer NOT NULL,
	`webhooks` integer NOT NULL,
	`callbacks` integer NOT NULL,
	`lint` text NOT NULL,
	`lint_errors` integer NOT NULL,
	`lint_warnings` integer NOT NULL,
	`status` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`api_id`) REFERENCES `apis`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `versions_api_label` ON `versions` (`api_id`,`label`);