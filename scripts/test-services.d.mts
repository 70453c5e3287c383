type Log = (message: string) => void;
type Install = (packages: string[], log?: Log) => boolean;
type Env = Record<string, string | undefined>;
type Service = { url: string; stop(): Promise<void> };

export const CHROMIUM_PACKAGES: string[];
export function which(name: string, env?: Env): string | undefined;
export function findChromium(env?: Env): { path?: string; error?: string };
export function canApt(env?: Env): boolean;
export function aptInstall(packages: string[], log?: Log): boolean;
export function ensureChromium(options?: { env?: Env; log?: Log; apt?: boolean; install?: Install }): string;
export function freePort(): Promise<number>;
export function redisAnswers(host: string, port: number): Promise<boolean>;
export function ensureRedisServer(options?: { env?: Env; log?: Log; apt?: boolean; install?: Install }): string;
export function ensureRedis(options: { env?: Env; log?: Log; binary: string }): Promise<Service>;
export function postgresAnswers(url: string): Promise<boolean>;
export function ensurePostgres(options?: { env?: Env; log?: Log }): Promise<Service>;
export function reachableByOthers(file: string): boolean;
export function stagePlatformPackage(name: string, binary: string): void;
