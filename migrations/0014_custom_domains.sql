CREATE TABLE `custom_hostnames` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`portal_id` integer NOT NULL,
	`hostname` text NOT NULL,
	`status` text NOT NULL,
	`validation` text NOT NULL,
	`provider_id` text NOT NULL,
	`hostname_status` text NOT NULL,
	`certificate_status` text NOT NULL,
	`dns_records` text DEFAULT '[]' NOT NULL,
	`errors` text DEFAULT '[]' NOT NULL,
	`created_at` text NOT NULL,
	`checked_at` text NOT NULL,
	FOREIGN KEY (`portal_id`) REFERENCES `portals`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `custom_hostnames_portal_id_unique` ON `custom_hostnames` (`portal_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `custom_hostnames_hostname_unique` ON `custom_hostnames` (`hostname`);--> statement-breakpoint
ALTER TABLE `portals` ADD `hostname` text;--> statement-breakpoint
CREATE UNIQUE INDEX `portals_hostname_unique` ON `portals` (`hostname`);