CREATE TABLE "wallet_usage" (
	"wallet_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"tier" text NOT NULL,
	"used" integer NOT NULL,
	CONSTRAINT "wallet_usage_wallet_id_hour_tier_pk" PRIMARY KEY("wallet_id","hour","tier")
);
--> statement-breakpoint
ALTER TABLE "wallet_usage" ADD CONSTRAINT "wallet_usage_wallet_id_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."wallets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- What was charged so far, by hour.
INSERT INTO "wallet_usage" ("wallet_id", "hour", "tier", "used")
SELECT "wallet_id", date_trunc('hour', "created_at"), "tier", sum(-"amount")::int
  FROM "wallet_ledger" WHERE "kind" = 'reserve' AND "state" = 'charged' AND "tier" IS NOT NULL
 GROUP BY 1, 2, 3;
