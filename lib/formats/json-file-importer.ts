import { readJsonDocument } from './chat-documents';
import { convertItem } from './chat-messages';
import { fileImporter, oneItemPerFile } from './file-importer';
import type { Importer } from './importer';
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
  return fileImporter({
    format: spec.format,
    fileLabel: spec.fileLabel,
    looksLike: spec.looksLike,
    parseFile: oneItemPerFile(readJsonDocument, (doc, path) => convertItem('', '', () => spec.convert(doc.value, path))),
  });
}
