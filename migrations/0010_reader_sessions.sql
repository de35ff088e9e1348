DROP TABLE `sign_in_attempts`;--> statement-breakpoint
ALTER TABLE `portals` ADD `session_version` integer DEFAULT 0 NOT NULL;