CREATE TABLE `search_shards` (
	`portal_id` integer NOT NULL,
	`source` text NOT NULL,
	`shard_key` text NOT NULL,
	`parts` integer DEFAULT 1 NOT NULL,
	`documents` integer NOT NULL,
	`docs_key` text NOT NULL,
	`stats` text NOT NULL,
	`built_at` text NOT NULL,
	PRIMARY KEY(`portal_id`, `source`),
	FOREIGN KEY (`portal_id`) REFERENCES `portals`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `search_live` ADD `stats` text;