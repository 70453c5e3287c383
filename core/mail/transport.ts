// SMTP_URL → nodemailer SMTP options. nodemailer's own URL form drops every other option (such as
// timeouts) when given an object, so the URL is read here: smtp://user:pass@host:port (plain or
// STARTTLS when offered) or smtps://… (TLS from the first byte).
import nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";

export const SMTP_CONNECTION_TIMEOUT_MS = 10_000;

export function smtpOptions(smtpUrl: string): SMTPTransport.Options {
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    throw new Error("SMTP_URL must look like smtp://user:pass@host:port");
  }
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:") throw new Error("SMTP_URL must start with smtp:// or smtps://");
  if (!url.hostname) throw new Error("SMTP_URL has no host");
  const secure = url.protocol === "smtps:";
  const user = decodeURIComponent(url.username);
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    auth: user ? { user, pass: decodeURIComponent(url.password) } : undefined,
    connectionTimeout: SMTP_CONNECTION_TIMEOUT_MS,
    greetingTimeout: SMTP_CONNECTION_TIMEOUT_MS,
    socketTimeout: 3 * SMTP_CONNECTION_TIMEOUT_MS,
  };
}

export function createSmtpTransport(smtpUrl: string) {
  return nodemailer.createTransport(smtpOptions(smtpUrl));
}
