CREATE TABLE `org_saml_assertions` (
	`organisation_id` integer NOT NULL,
	`assertion_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`organisation_id`, `assertion_id`),
	FOREIGN KEY (`organisation_id`) REFERENCES `organisations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `org_saml_assertions_expiry` ON `org_saml_assertions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `org_saml_idps` (
	`organisation_id` integer PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`sso_url` text NOT NULL,
	`certificates` text NOT NULL,
	`settings` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`organisation_id`) REFERENCES `organisations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `org_saml_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`organisation_id` integer NOT NULL,
	`return_to` text NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`organisation_id`) REFERENCES `organisations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `org_saml_requests_expiry` ON `org_saml_requests` (`expires_at`);--> statement-breakpoint
ALTER TABLE `writer_sessions` ADD `organisation_id` integer REFERENCES organisations(id);--> statement-breakpoint
CREATE INDEX `writer_sessions_org` ON `writer_sessions` (`organisation_id`);