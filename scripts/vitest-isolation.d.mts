export function filesThatMock(root: string, dirs: string[]): string[];
export function isolationProjects(
  root: string,
  name: string,
  include: string[],
  dirs: string[],
  each?: { globalSetup?: string[] },
): {
  extends: true;
  test: { name: string; include: string[]; exclude?: string[]; isolate: boolean; globalSetup?: string[] };
}[];
