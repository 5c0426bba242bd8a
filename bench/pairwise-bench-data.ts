/**
 * SQL that builds the pairwise benches' project (bench/datasets.bench.ts, bench/training.bench.ts)
 * in bulk with generate_series: `tasks` x `policies` trajectories of 6 steps (four tool calls
 * with their output), 5 reviewers, one Likert rubric, and a temp table `pairs(n, ta, tb)` of
 * same-task pairs of different policies numbered in `order`. The bench then adds its campaigns
 * and items, and `COMPARISONS_SQL` gives every item one submitted comparison.
 */
export function pairwiseProjectSql(o: {
  projectId: string;
  slug: string;
  tasks: number;
  policies: number;
  order: 'task' | 'policy';
}): string {
  const rubric = JSON.stringify({
    title: 'Pairs',
    instructions: '',
    questions: [{ id: 'quality', type: 'likert', prompt: 'Quality', points: 5, required: true, anchors: {} }],
  });
  const id = (col: string) => `lpad(${col}::text,3,'0')`;
  return `
    INSERT INTO "project" ("id","slug","name","updatedAt") VALUES ('${o.projectId}','${o.slug}','${o.slug}',now());
    INSERT INTO "user" ("id","name","email","role","updatedAt") SELECT 'u'||g,'Reviewer '||g,'r'||g||'@bench.test','reviewer',now() FROM generate_series(1,5) g;
    INSERT INTO "task" ("id","projectId","name","instruction","updatedAt")
      SELECT 'tk'||${id('t')},'${o.projectId}','task-'||t,'Make the failing tests in repo '||t||' pass without editing the tests.',now() FROM generate_series(1,${o.tasks}) t;
    INSERT INTO "policy" ("id","projectId","name","model") SELECT 'pl'||${id('p')},'${o.projectId}','policy-'||p,'model-'||p FROM generate_series(1,${o.policies}) p;
    INSERT INTO "trajectory" ("id","projectId","taskId","policyId","sourceFormat","contentHash","stepCount")
      SELECT 'tr'||${id('t')}||${id('p')},'${o.projectId}','tk'||${id('t')},'pl'||${id('p')},'openai',md5(t||'/'||p),6
      FROM generate_series(1,${o.tasks}) t, generate_series(1,${o.policies}) p;
    INSERT INTO "step" ("id","trajectoryId","index","source","text","toolCalls","observations")
      SELECT tr.id||'-'||s, tr.id, s,
        CASE WHEN s=0 THEN 'user' ELSE 'agent' END,
        CASE WHEN s=0 THEN 'Make the failing tests pass.' ELSE 'Step '||s||': I will inspect the module and run the test suite again to see what changed ('||tr.id||').' END,
        CASE WHEN s BETWEEN 1 AND 4 THEN jsonb_build_array(jsonb_build_object('id','call_'||s,'name','bash','arguments',jsonb_build_object('command','pytest -q tests/test_'||s||'.py','timeout',30))) ELSE '[]'::jsonb END,
        CASE WHEN s BETWEEN 1 AND 4 THEN jsonb_build_array(jsonb_build_object('toolCallId','call_'||s,'content',repeat('tests/test_mod.py::test_case PASSED\n',8),'isError',false)) ELSE '[]'::jsonb END
      FROM "trajectory" tr, generate_series(0,5) s;
    INSERT INTO "rubric" ("id","projectId","name") VALUES ('rb','${o.projectId}','pairs');
    INSERT INTO "rubric_version" ("id","rubricId","version","definition") VALUES ('rv','rb',1,'${rubric}'::jsonb);
    CREATE TEMP TABLE pairs AS
      SELECT row_number() OVER (ORDER BY ${o.order === 'task' ? 't, a, b' : 'a, t, b'}) AS n, 'tr'||${id('t')}||${id('a')} AS ta, 'tr'||${id('t')}||${id('b')} AS tb
      FROM generate_series(1,${o.tasks}) t, generate_series(1,${o.policies}) a, generate_series(1,${o.policies}) b WHERE a < b;`;
}

/** One submitted comparison (by one of the 5 reviewers, a seeded preference) for every campaign item. */
export const COMPARISONS_SQL = `
    INSERT INTO "assignment" ("id","campaignItemId","reviewerId","status","leaseExpiresAt")
      SELECT 'as-'||i.id, i.id, 'u'||(1 + abs(hashtext(i.id)) % 5), 'submitted', now() FROM "campaign_item" i;
    INSERT INTO "pairwise_comparison" ("id","assignmentId","campaignItemId","reviewerId","preference","rationale","idempotencyKey")
      SELECT 'pc-'||i.id, 'as-'||i.id, i.id, a."reviewerId", (ARRAY[-2,-1,1,2])[1 + abs(hashtext(i.id||'p')) % 4], 'bench rationale', 'k-'||i.id
      FROM "campaign_item" i JOIN "assignment" a ON a."campaignItemId" = i.id;`;
