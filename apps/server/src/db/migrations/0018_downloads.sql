CREATE TABLE "downloads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"display_name" text NOT NULL,
	"download_tag" text NOT NULL,
	"name" text,
	"description" text,
	"brand_id" text,
	"platform_os" text,
	"platform_version" text,
	"supported_versions" text,
	"is_downloadable" boolean DEFAULT true NOT NULL,
	"download_on_free" boolean DEFAULT true NOT NULL,
	"is_visible" boolean DEFAULT true NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"version" text,
	"blob_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"size_in_bytes" integer NOT NULL,
	"content_type" text NOT NULL,
	"sha256" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_by" uuid,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_blob_id_blobs_id_fk" FOREIGN KEY ("blob_id") REFERENCES "public"."blobs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "downloads_tag_version_idx" ON "downloads" USING btree ("download_tag","version");--> statement-breakpoint
CREATE INDEX "downloads_published_idx" ON "downloads" USING btree ("is_active","is_visible") WHERE "downloads"."is_active" and "downloads"."is_visible";