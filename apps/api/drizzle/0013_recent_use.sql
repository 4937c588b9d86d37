ALTER TABLE "wallets" ADD COLUMN "recent_day" date;--> statement-breakpoint
ALTER TABLE "wallets" ADD COLUMN "recent_basic" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "wallets" ADD COLUMN "recent_advance" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "wallets" ADD COLUMN "recent_extra_advance" integer DEFAULT 0 NOT NULL;