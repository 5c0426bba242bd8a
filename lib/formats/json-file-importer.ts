import { readJsonDocument } from './chat-documents';
import { fileHead } from './chat-detect';
import { convertItem } from './chat-messages';
import type { Importer } from './importer';
import { errorItem } from './item';
import type { Trajectory } from './trajectory';

/**
 * An importer for a format whose file is one JSON document holding one trajectory (SWE-agent's
 * `.traj`, mini-swe-agent's `.traj.json`): detection from the file's head, a readable error for
 * a directory or broken JSON, and the conversion's errors reported at the document root.
 */
export function jsonFileImporter(spec: {
  format: Importer['format'];
  /** what a user calls the file, for the error on a directory: "a SWE-agent .traj file" */
  fileLabel: string;
  looksLike: (head: string) => boolean;
  convert: (document: unknown, path: string) => Trajectory;
}): Importer {
  return {
    format: spec.format,
    detect(probe) {
      const head = fileHead(probe);
      return head !== null && spec.looksLike(head);
    },
    async *parse(input) {
      if (input.kind !== 'file') {
        yield errorItem(input.dir.path, `expected ${spec.fileLabel}, found a directory`);
        return;
      }
      const doc = await readJsonDocument(input.file);
      if (!doc.ok) {
        yield errorItem(doc.where, doc.message);
        return;
      }
      const path = input.file.path;
      yield convertItem('', '', () => spec.convert(doc.value, path));
    },
  };
}
