CREATE TABLE `organisation_portals` (
	`organisation_id` integer NOT NULL,
	`portal_id` integer NOT NULL,
	PRIMARY KEY(`organisation_id`, `portal_id`),
	FOREIGN KEY (`organisation_id`) REFERENCES `organisations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`portal_id`) REFERENCES `portals`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `organisation_portals_portal` ON `organisation_portals` (`portal_id`);--> statement-breakpoint
CREATE TABLE `organisations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`plan` text DEFAULT 'team' NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `organisations_slug_unique` ON `organisations` (`slug`);--> statement-breakpoint
CREATE TABLE `search_live` (
	`portal_id` integer PRIMARY KEY NOT NULL,
	`index_key` text NOT NULL,
	`parts` integer DEFAULT 1 NOT NULL,
	`documents` integer NOT NULL,
	`variables` text DEFAULT '{}' NOT NULL,
	`built_at` text NOT NULL,
	FOREIGN KEY (`portal_id`) REFERENCES `portals`(`id`) ON UPDATE no action ON DELETE no action
);
