ALTER TABLE "conversations" ADD COLUMN "answering_turn" uuid;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "answering_until" timestamp with time zone;