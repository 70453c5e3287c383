// Types of scripts/docs-refs.mjs (plain ESM, run by node), for its test.
export const ROOT: string;
export type Rule = { file?: string; doc?: "spec" | "decisions"; sections?: number[]; near?: RegExp; to: string };
export const DEFAULTS: Record<"spec" | "decisions", Record<number, string>>;
export const RULES: Rule[];
export const PHRASES: { file: string; from: string; to: string }[];
export function citedSections(run: string): ["spec" | "decisions", number][];
export function targetOf(file: string, doc: string, section: number, context: string): string;
export function rewrite(file: string, text: string, headingTitle?: (path: string, anchor: string) => string | undefined): { text: string; changes: { line: number; from: string; to: string }[] };
export function slug(heading: string): string;
export function headings(markdown: string): Map<string, string>;
export function references(file: string, text: string): { line: number; raw: string; path: string; anchor?: string }[];
export function oldCitations(text: string): { line: number; raw: string }[];
export function problems(files: { path: string; text: string }[], read: (path: string) => string | undefined): string[];
export function treeFiles(root?: string): string[];
export function readTree(relative: string, root?: string): string | undefined;
export function checkTree(root?: string): string[];
