-- Issue 27 §2 at platform scale (bench/workflows.ts): the workflows grid pages newest first, whatever its filters.
CREATE INDEX "workflows_created_idx" ON "workflows" USING btree ("created_at","id");
--> statement-breakpoint
-- Its failed workflows (what the messaging dashboard links to): one in a hundred, read newest first without the others.
CREATE INDEX "workflows_failed_created_idx" ON "workflows" USING btree ("created_at","id") WHERE "workflows"."status" = 'Failed';
--> statement-breakpoint
-- The failed workflows' types and correlation ids from the index alone (the grid's count of a type, the message
-- browser's WorkflowStatus filter), as well as the recent failures the dashboard's alert reads (migration 0025).
DROP INDEX "workflows_failed_updated_idx";
--> statement-breakpoint
CREATE INDEX "workflows_failed_updated_idx" ON "workflows" USING btree ("updated_at","type","correlation_id") WHERE "workflows"."status" = 'Failed';
--> statement-breakpoint
-- The message browser's default order (CreatedDate desc, then the key), as the OData compiler writes it.
CREATE INDEX "messages_created_idx" ON "messages" USING btree ("created_date" DESC NULLS LAST,"id");
--> statement-breakpoint
-- The inbound copies of a sent message (delivery key <message id>:<recipient>), and the delivery summaries, found
-- from their workflows' side: the message browser's WorkflowStatus filter.
CREATE INDEX "messages_inbound_link_idx" ON "messages" USING btree (split_part("delivery_key", ':', 1)) WHERE "messages"."direction" = 'Inbound' and "messages"."delivery_key" is not null;
