export const root: string;
export const CONFIG: string[];
export function recordedInputs(dir?: string): { client: string[]; server: string[] } | null;
export function buildInputs(dir?: string): string[] | null;
export function fingerprint(dir?: string): string | null;
export function buildIsCurrent(dir?: string): boolean;
export function markBuilt(dir?: string): void;
