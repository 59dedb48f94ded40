ALTER TABLE "messages" ADD COLUMN "delivery_key" text;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_delivery_key_unique" UNIQUE("organization_id","delivery_key");