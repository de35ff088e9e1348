CREATE TABLE `assistant_threads` (
	`id` text PRIMARY KEY NOT NULL,
	`portal_id` integer NOT NULL,
	`owner` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`turns` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`portal_id`) REFERENCES `portals`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `assistant_threads_expiry` ON `assistant_threads` (`expires_at`);--> statement-breakpoint
CREATE TABLE `assistant_turns` (
	`thread_id` text NOT NULL,
	`turn` integer NOT NULL,
	`question` text NOT NULL,
	`answered` integer NOT NULL,
	`answer` text NOT NULL,
	`sources` text NOT NULL,
	`helpful` integer,
	`comment` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`thread_id`, `turn`),
	FOREIGN KEY (`thread_id`) REFERENCES `assistant_threads`(`id`) ON UPDATE no action ON DELETE cascade
);
