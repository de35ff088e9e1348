CREATE INDEX `operations_version_method_path` ON `operations` (`version_id`,`method`,`path`);--> statement-breakpoint
CREATE INDEX `operations_slug` ON `operations` (`slug`);