import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';

/** One YAML document of a manifest file, with where it came from for error messages. */
export interface ManifestDocument {
  /** Path relative to the manifests root, e.g. `base/dedupe.yaml`. */
  readonly file: string;
  /** Index of the document inside its file (documents are separated by `---`). */
  readonly index: number;
  readonly doc: Record<string, unknown>;
}

/** Every `.yaml`/`.yml` file under `root`, recursively, sorted. */
export function listManifestFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.ya?ml$/.test(entry)) files.push(relative(root, path));
    }
  };
  walk(root);
  return files;
}

/** Parses every document of every file under `root`; a YAML syntax error throws with the file named. */
export function loadManifests(root: string): ManifestDocument[] {
  return listManifestFiles(root).flatMap((file) =>
    parseAllDocuments(readFileSync(join(root, file), 'utf8')).flatMap((parsed, index) => {
      if (parsed.errors.length > 0) throw new Error(`${file} document ${index}: ${parsed.errors[0]?.message}`);
      const doc: unknown = parsed.toJS();
      if (doc === null || doc === undefined) return [];
      if (typeof doc !== 'object' || Array.isArray(doc)) throw new Error(`${file} document ${index}: not a mapping`);
      return [{ file, index, doc: doc as Record<string, unknown> }];
    }),
  );
}
