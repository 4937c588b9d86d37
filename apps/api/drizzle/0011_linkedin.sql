CREATE TABLE "automations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'Pending' NOT NULL,
	"daily_run" boolean DEFAULT false NOT NULL,
	"text" text,
	"keyword_id" uuid,
	"run_at" timestamp with time zone,
	"local_time" text,
	"timezone" text,
	"repeat" text DEFAULT 'none' NOT NULL,
	"visibility" text DEFAULT 'PUBLIC' NOT NULL,
	"dedupe_key" text,
	"attempt_started_at" timestamp with time zone,
	"locked_by" text,
	"lease_until" timestamp with time zone,
	"post_urn" text,
	"published_at" timestamp with time zone,
	"runs" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "linkedin_connections" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"member_id" text NOT NULL,
	"name" text,
	"email" text,
	"picture" text,
	"access_token_enc" text NOT NULL,
	"scope" text DEFAULT '' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "linkedin_drafts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"post_urn" text NOT NULL,
	"post_url" text,
	"author_name" text DEFAULT '' NOT NULL,
	"post_excerpt" text DEFAULT '' NOT NULL,
	"keyword_id" uuid,
	"keyword" text,
	"profile_url" text,
	"text" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"flags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"day" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "linkedin_keywords" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"keyword" text NOT NULL,
	"avoid" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"include" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"last_run_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "linkedin_oauth_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "linkedin_profiles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"url" text NOT NULL,
	"name" text,
	"active" boolean DEFAULT true NOT NULL,
	"last_run_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "linkedin_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"settings" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "linkedin_stats" (
	"user_id" uuid NOT NULL,
	"metric" text NOT NULL,
	"day" date NOT NULL,
	"value" double precision NOT NULL,
	"source" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "linkedin_stats_user_id_metric_day_pk" PRIMARY KEY("user_id","metric","day")
);
--> statement-breakpoint
ALTER TABLE "automations" ADD CONSTRAINT "automations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automations" ADD CONSTRAINT "automations_keyword_id_linkedin_keywords_id_fk" FOREIGN KEY ("keyword_id") REFERENCES "public"."linkedin_keywords"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "linkedin_connections" ADD CONSTRAINT "linkedin_connections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "linkedin_drafts" ADD CONSTRAINT "linkedin_drafts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "linkedin_drafts" ADD CONSTRAINT "linkedin_drafts_keyword_id_linkedin_keywords_id_fk" FOREIGN KEY ("keyword_id") REFERENCES "public"."linkedin_keywords"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "linkedin_keywords" ADD CONSTRAINT "linkedin_keywords_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "linkedin_oauth_states" ADD CONSTRAINT "linkedin_oauth_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "linkedin_profiles" ADD CONSTRAINT "linkedin_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "linkedin_settings" ADD CONSTRAINT "linkedin_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "linkedin_stats" ADD CONSTRAINT "linkedin_stats_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "automations_user_idx" ON "automations" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "automations_due_idx" ON "automations" USING btree ("status","run_at");--> statement-breakpoint
CREATE UNIQUE INDEX "automations_dedupe_idx" ON "automations" USING btree ("dedupe_key");--> statement-breakpoint
CREATE UNIQUE INDEX "linkedin_drafts_user_post_idx" ON "linkedin_drafts" USING btree ("user_id","post_urn");--> statement-breakpoint
CREATE INDEX "linkedin_drafts_user_day_idx" ON "linkedin_drafts" USING btree ("user_id","day");--> statement-breakpoint
CREATE INDEX "linkedin_drafts_user_status_idx" ON "linkedin_drafts" USING btree ("user_id","status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "linkedin_keywords_user_keyword_idx" ON "linkedin_keywords" USING btree ("user_id",lower("keyword"));--> statement-breakpoint
CREATE INDEX "linkedin_oauth_states_user_idx" ON "linkedin_oauth_states" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "linkedin_profiles_user_url_idx" ON "linkedin_profiles" USING btree ("user_id","url");