CREATE TABLE `saml_idps` (
	`portal_id` integer PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`sso_url` text NOT NULL,
	`certificates` text NOT NULL,
	`attribute_mapping` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`portal_id`) REFERENCES `portals`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `saml_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`portal_id` integer NOT NULL,
	`return_to` text NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`portal_id`) REFERENCES `portals`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `saml_requests_expiry` ON `saml_requests` (`expires_at`);