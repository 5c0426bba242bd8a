import { writeAudit } from '../auth/queries/audit';
import { parseInput } from '../parse-input';
import { rubricDefinition } from '../review/rubric';
import { insertRubricVersion } from './queries/rubrics';

/** Saves a rubric definition as a new immutable version (version 1 creates the rubric); audited (`rubric.version`). */
export async function saveRubricVersion(projectId: string, name: string, definition: unknown, actorId: string | null) {
  const checked = parseInput(rubricDefinition, definition, 'rubric');
  return insertRubricVersion(projectId, name, checked, (tx, saved) =>
    writeAudit(tx, {
      actorId,
      action: 'rubric.version',
      targetType: 'rubric',
      targetId: saved.rubricId,
      projectId,
      data: { version: saved.version },
    }),
  );
}
