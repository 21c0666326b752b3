-- Dispute moves in the table (issue 58, decision 050). DISPUTE_DAYS where SQL reads it: one row,
-- written by the server at boot from its config (db/dispute-settings.ts), so that a placement's
-- life (the content dispute's window, a guard of shared/placement-machine.ts) reads the same days.
CREATE TABLE "dispute_settings" (
  "id" boolean PRIMARY KEY DEFAULT true CHECK ("id"),
  "dispute_days" integer DEFAULT 7 NOT NULL
);--> statement-breakpoint
INSERT INTO "dispute_settings" DEFAULT VALUES;
