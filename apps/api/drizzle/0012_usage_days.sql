CREATE TABLE "wallet_usage_days" (
	"wallet_id" uuid NOT NULL,
	"day" date NOT NULL,
	"tier" text NOT NULL,
	"used" integer NOT NULL,
	CONSTRAINT "wallet_usage_days_wallet_id_day_tier_pk" PRIMARY KEY("wallet_id","day","tier")
);
--> statement-breakpoint
ALTER TABLE "wallet_usage_days" ADD CONSTRAINT "wallet_usage_days_wallet_id_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."wallets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The use already summed by the hour, summed again by its UTC day.
INSERT INTO "wallet_usage_days" ("wallet_id", "day", "tier", "used")
SELECT "wallet_id", ("hour" AT TIME ZONE 'UTC')::date, "tier", sum("used")::int
  FROM "wallet_usage"
 GROUP BY 1, 2, 3;
