-- A campaign deleted with its items: the items' cascade ran witness_stat_item_delete, whose
-- UPDATE of the campaign's stat rows (a second update of a row this transaction already wrote)
-- re-checked the stat row's foreign key against the campaign being deleted, and the delete failed
-- (lib/db/campaigns/campaign-snapshots.db.test.ts, "deleting what the stored counts hang on").
-- When the campaign itself is going, its stat rows go with it: nothing to count.
CREATE OR REPLACE FUNCTION witness_stat_item_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM campaign c WHERE c.id = OLD."campaignId") THEN
    RETURN OLD;
  END IF;
  UPDATE campaign_reviewer_stat s SET assigned = s.assigned - d.n, submitted = s.submitted - d.sub, skipped = s.skipped - d.sk,
         "labelChanges" = s."labelChanges" + d.n
  FROM (SELECT a."reviewerId", count(*) AS n, count(*) FILTER (WHERE a.status = 'submitted') AS sub,
               count(*) FILTER (WHERE a.status = 'skipped') AS sk
        FROM assignment a WHERE a."campaignItemId" = OLD.id GROUP BY 1 ORDER BY 1) d
  WHERE s."campaignId" = OLD."campaignId" AND s."reviewerId" = d."reviewerId";
  INSERT INTO campaign_reviewer_stat AS s ("campaignId", "reviewerId", "labelChanges")
  VALUES (OLD."campaignId", '', 1)
  ON CONFLICT ("campaignId", "reviewerId") DO UPDATE SET "labelChanges" = s."labelChanges" + 1;
  RETURN OLD;
END $$;
