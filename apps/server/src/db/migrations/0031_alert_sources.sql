-- The last fetch of each CRL distribution point the Direct engine used (issue 27 §1: the "CRL refresh failing" alert).
CREATE TABLE "revocation_lists" (
	"url" text PRIMARY KEY NOT NULL,
	"last_success_at" timestamp with time zone,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"failing_since" timestamp with time zone
);
--> statement-breakpoint
-- Each system alert's status and since when (the alerts whose condition has no date of its own).
CREATE TABLE "system_alert_states" (
	"alert_type" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL
);
