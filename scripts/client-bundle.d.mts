export const SERVER_LIBRARIES: { name: string; pattern: RegExp }[];
export function serverLibrariesIn(text: string): string[];
export function clientChunks(buildDir?: string): string[];
export function serverCodeInClient(buildDir?: string): { file: string; libraries: string[] }[];
