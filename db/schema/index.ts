// The one relational model; each file holds the tables of one area of the core.
export * from "./accounts.ts";
export * from "./catalog.ts";
export * from "./commerce.ts";
export * from "./messaging.ts";
export * from "./receipts.ts";
export * from "./routing.ts";
export * from "./content.ts";
export * from "./admin.ts";
export * from "./delivery.ts";
export * from "./dashboard.ts";
