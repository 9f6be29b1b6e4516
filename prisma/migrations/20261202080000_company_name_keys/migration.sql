-- A record without a company domain (some partners list none) is filed under the one company
-- with a domain whose name has the same key (libs/matching `companyNameKey`, decision 0047).
-- The keys of companies stored before are filled by dedupe as it starts: the key is TypeScript's.
ALTER TABLE "companies" ADD COLUMN "name_key" TEXT;

CREATE INDEX "companies_name_key_idx" ON "companies"("name_key");
