-- one canary campaign per checkpoint (lib/training/open-canary-campaign.ts): two training.canary jobs
-- for one checkpoint in two workers (one keyed on it, one on its parent) cannot both create one
CREATE UNIQUE INDEX "campaign_canary_child_key" ON "campaign" ("projectId", (filter->'canary'->>'child')) WHERE filter ? 'canary';
