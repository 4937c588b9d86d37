import type { ImageVersion } from '@parley/contract';

/**
 * The editor's place among an image's versions. Versions make a tree (an older version re-edited starts a branch), and
 * the editor shows one of them: `current`. Undo goes to the version it was made from; redo goes back down the way undo
 * came (`redo`, most recent last), or, when there is none, to the newest version made from the current one. Choosing a
 * version in the list or making a new one forgets the way back down.
 */
export type VersionPointer = { current: string | null; redo: string[] };

export const initialPointer = (versions: readonly ImageVersion[]): VersionPointer => ({
  current: versions.at(-1)?.id ?? null,
  redo: [],
});

const byId = (versions: readonly ImageVersion[], id: string | null) =>
  id === null ? undefined : versions.find((v) => v.id === id);

/** The version shown: the pointer's, or the newest when the pointer names none of these (a deleted or new image). */
export function currentVersion(versions: readonly ImageVersion[], pointer: VersionPointer): ImageVersion | undefined {
  return byId(versions, pointer.current) ?? versions.at(-1);
}

export function parentOf(versions: readonly ImageVersion[], version: ImageVersion | undefined) {
  return version?.parentId ? byId(versions, version.parentId) : undefined;
}

/** The newest version made from `id` (versions come oldest first). */
function newestChild(versions: readonly ImageVersion[], id: string): ImageVersion | undefined {
  return versions.findLast((v) => v.parentId === id);
}

export function canUndo(versions: readonly ImageVersion[], pointer: VersionPointer): boolean {
  return Boolean(parentOf(versions, currentVersion(versions, pointer)));
}

export function canRedo(versions: readonly ImageVersion[], pointer: VersionPointer): boolean {
  return redoTarget(versions, pointer) !== undefined;
}

function redoTarget(versions: readonly ImageVersion[], pointer: VersionPointer): ImageVersion | undefined {
  const current = currentVersion(versions, pointer);
  if (!current) return undefined;
  const remembered = byId(versions, pointer.redo.at(-1) ?? null);
  if (remembered && remembered.parentId === current.id) return remembered;
  return newestChild(versions, current.id);
}

export function undo(versions: readonly ImageVersion[], pointer: VersionPointer): VersionPointer {
  const current = currentVersion(versions, pointer);
  const parent = parentOf(versions, current);
  if (!current || !parent) return pointer;
  return { current: parent.id, redo: [...pointer.redo, current.id] };
}

export function redo(versions: readonly ImageVersion[], pointer: VersionPointer): VersionPointer {
  const target = redoTarget(versions, pointer);
  if (!target) return pointer;
  const remembered = pointer.redo.at(-1) === target.id;
  return { current: target.id, redo: remembered ? pointer.redo.slice(0, -1) : [] };
}

/** A version chosen in the list, or one just made: the way back down is forgotten. */
export const select = (id: string): VersionPointer => ({ current: id, redo: [] });

/** 1 for the first version, in the order they were made (the list's numbers). */
export const versionNumber = (versions: readonly ImageVersion[], id: string) =>
  versions.findIndex((v) => v.id === id) + 1;
