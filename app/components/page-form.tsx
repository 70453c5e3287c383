// The forms of the pages (docs/product/routes.md#forms) with Conform: the form's state, a labelled
// field wired from Conform's field metadata (its id, name, HTML constraints, aria-invalid and
// aria-describedby pointing at the message) and the form's own message. The pages that only hold
// forms do not hydrate, so Conform runs on the server there and costs the browser nothing
// (docs/decisions/0009-forms-on-the-server.md); a page that hydrates and imports this module pays
// ~9 KiB gzip for it. No Zod here: constraints come as plain data.
import { getFormProps, getInputProps, useForm, type FieldMetadata, type FormMetadata, type SubmissionResult } from "@conform-to/react";
import type { DefaultValue } from "@conform-to/dom";
import { Form } from "react-router";
import type { InputHTMLAttributes, ReactNode } from "react";
import type { Constraint } from "../../core/accounts/accounts.constraints.ts";
import type { FormReply } from "../lib/forms.server.ts";
import { FormMessage } from "./forms.tsx";

/**
 * The reply of the page's action to the form that posts `intent`, if the last answer was one;
 * a page of one form names no intent. Success answers are the page's own business.
 */
export function replyTo(answer: unknown, intent?: string): SubmissionResult<string[]> | undefined {
  if (typeof answer !== "object" || answer === null || !("ok" in answer) || answer.ok !== false) return undefined;
  const reply = answer as FormReply;
  return intent === undefined || reply.intent === intent ? reply.result : undefined;
}

/**
 * A form's state from Conform: the fields named by `constraint` (their HTML constraints), filled
 * in from `defaultValue` or from what the last refused post typed, with that post's messages. No
 * validation runs in the browser: the server's schema checks every post.
 */
export function usePageForm<C extends Record<string, Constraint>>(
  id: string,
  constraint: C,
  options: { lastResult?: SubmissionResult<string[]>; defaultValue?: DefaultValue<Partial<Record<keyof C, string>>> } = {},
) {
  return useForm<Partial<Record<keyof C, string>>>({ id, constraint, lastResult: options.lastResult, defaultValue: options.defaultValue });
}

/**
 * A page form: posts to its route (without JavaScript as with it), `noValidate` from Conform so
 * the page shows the server's messages instead of the browser's bubbles, and the form's message
 * first, where its aria-describedby points.
 */
export function PageForm<S extends Record<string, unknown>>({ form, className = "form", children }: { form: FormMetadata<S>; className?: string; children: ReactNode }) {
  return (
    <Form method="post" className={className} {...getFormProps(form)}>
      <FormMessage errors={form.errors} id={form.errorId} />
      {children}
    </Form>
  );
}

type InputType = "text" | "email" | "password";

/** A labelled text input wired from Conform's metadata; `hint` stays under it, the message too. */
export function Field({
  field,
  label,
  hint,
  type = "text",
  ...input
}: { field: FieldMetadata<string | undefined>; label: string; hint?: string; type?: InputType } & Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "id" | "name" | "form" | "defaultValue">) {
  const invalid = Boolean(field.errors?.length);
  return (
    <div className={`field${invalid ? " field-invalid" : ""}`}>
      <label htmlFor={field.id}>{label}</label>
      <input {...getInputProps(field, { type, ariaDescribedBy: hint ? field.descriptionId : undefined })} {...input} />
      {invalid && (
        <p className="field-error" id={field.errorId} role="alert">
          {field.errors!.join(" ")}
        </p>
      )}
      {hint && (
        <p className="field-hint" id={field.descriptionId}>
          {hint}
        </p>
      )}
    </div>
  );
}

/** A checkbox with its label, wired like Field; checked when its value ("on") is the form's. */
export function CheckboxField({ field, label }: { field: FieldMetadata<string | undefined>; label: string }) {
  return (
    <label className="check">
      <input {...getInputProps(field, { type: "checkbox" })} /> {label}
    </label>
  );
}
