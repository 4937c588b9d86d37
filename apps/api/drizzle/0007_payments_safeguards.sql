ALTER TABLE "billing_customers" ADD COLUMN "trial_checkout_id" text;--> statement-breakpoint
ALTER TABLE "billing_customers" ADD COLUMN "open_checkout_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_customers_student_email_idx" ON "billing_customers" USING btree ("student_email") WHERE "billing_customers"."student_verified_at" IS NOT NULL;