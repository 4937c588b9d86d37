CREATE TABLE "feature_uses" (
	"user_id" uuid NOT NULL,
	"capability" text NOT NULL,
	"day" date NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "feature_uses_user_id_capability_day_pk" PRIMARY KEY("user_id","capability","day")
);
--> statement-breakpoint
CREATE TABLE "wallet_ledger" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"wallet_id" uuid NOT NULL,
	"user_id" uuid,
	"balance" text NOT NULL,
	"tier" text,
	"amount" integer NOT NULL,
	"kind" text NOT NULL,
	"state" text,
	"feature" text,
	"reservation_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "wallets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"plan" text DEFAULT 'free' NOT NULL,
	"daily_credit" integer DEFAULT 0 NOT NULL,
	"basic_credit" integer DEFAULT 0 NOT NULL,
	"advance_credit" integer DEFAULT 0 NOT NULL,
	"extra_advance_credit" integer DEFAULT 0 NOT NULL,
	"daily_renews_at" timestamp with time zone NOT NULL,
	"monthly_renews_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallets_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
ALTER TABLE "feature_uses" ADD CONSTRAINT "feature_uses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_ledger" ADD CONSTRAINT "wallet_ledger_wallet_id_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."wallets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_ledger" ADD CONSTRAINT "wallet_ledger_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "wallet_ledger_wallet_idx" ON "wallet_ledger" USING btree ("wallet_id","created_at");--> statement-breakpoint
CREATE INDEX "wallet_ledger_reserved_idx" ON "wallet_ledger" USING btree ("created_at") WHERE "wallet_ledger"."state" = 'reserved';--> statement-breakpoint
CREATE INDEX "wallets_daily_renews_idx" ON "wallets" USING btree ("daily_renews_at");--> statement-breakpoint
CREATE INDEX "wallets_monthly_renews_idx" ON "wallets" USING btree ("monthly_renews_at");--> statement-breakpoint
-- Every account gets a wallet holding the balances it had, on the plan of the channel it came by. Daily credits
-- are due for renewal at the next UTC midnight; from then on at the owner's own midnight. Lifetime accounts' other
-- credits are topped up a month from now, and every month after.
INSERT INTO "wallets" ("user_id", "plan", "daily_credit", "basic_credit", "advance_credit", "extra_advance_credit", "daily_renews_at", "monthly_renews_at", "created_at")
SELECT "id", CASE WHEN "app_deal" THEN 'appDeal' WHEN "early_bird" THEN 'earlyBird' ELSE 'free' END,
       "daily_credit", "basic_credit", "advance_credit", "extra_advance_credit",
       date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + interval '1 day',
       CASE WHEN "lifetime_user" THEN now() + interval '1 month' END,
       "created_at"
  FROM "users";--> statement-breakpoint
-- The history: each metered call of the old ledger, as it settled (a refund is a row of its own now).
INSERT INTO "wallet_ledger" ("id", "wallet_id", "user_id", "balance", "tier", "amount", "kind", "state", "feature", "created_at", "settled_at")
SELECT l."id", w."id", l."user_id", l."tier", l."tier", -l."amount", 'reserve', l."state", l."feature", l."created_at", l."settled_at"
  FROM "credit_ledger" l JOIN "wallets" w ON w."user_id" = l."user_id";--> statement-breakpoint
INSERT INTO "wallet_ledger" ("wallet_id", "user_id", "balance", "tier", "amount", "kind", "feature", "reservation_id", "created_at")
SELECT w."id", l."user_id", l."tier", l."tier", l."amount", 'refund', l."feature", l."id", coalesce(l."settled_at", l."created_at")
  FROM "credit_ledger" l JOIN "wallets" w ON w."user_id" = l."user_id" WHERE l."state" = 'refunded';--> statement-breakpoint
-- Opening rows: what each balance held before that history, so that every balance equals the sum of its ledger.
INSERT INTO "wallet_ledger" ("wallet_id", "user_id", "balance", "amount", "kind", "created_at")
SELECT "wallet_id", "user_id", "balance", "amount", 'opening', "created_at" FROM (
  SELECT w."id" AS "wallet_id", w."user_id", b."balance", w."created_at",
         b."held" - coalesce((SELECT sum(x."amount") FROM "wallet_ledger" x
                               WHERE x."wallet_id" = w."id" AND x."balance" = b."balance"), 0)::int AS "amount"
    FROM "wallets" w
   CROSS JOIN LATERAL (VALUES ('daily', w."daily_credit"), ('basic', w."basic_credit"),
                              ('advance', w."advance_credit"), ('extraAdvance', w."extra_advance_credit")) AS b("balance", "held")
) o WHERE "amount" <> 0;--> statement-breakpoint
DROP TABLE "credit_ledger" CASCADE;--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "basic_use";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "advance_use";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "extra_advance_use";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "daily_credit";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "basic_credit";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "advance_credit";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "extra_advance_credit";