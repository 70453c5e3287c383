// The forms of the pages (docs/product/routes.md#forms) with Conform: the form's state, a labelled
// field wired from Conform's field metadata (its id, name, HTML constraints, aria-invalid and
// aria-describedby pointing at the message) and the form's own message. The pages that only hold
// forms do not hydrate, so Conform runs on the server there and costs the browser nothing
// (docs/decisions/0009-forms-on-the-server.md); a page that hydrates and imports this module pays
// ~9 KiB gzip for it. No Zod here: constraints come as plain data.
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type FieldMetadata, type FormMetadata, type SubmissionResult } from "@conform-to/react";
import type { Constraint, DefaultValue } from "@conform-to/dom";
import { Form } from "react-router";
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";
import { FormMessage } from "./forms.tsx";

/**
 * Conform's result in the action's last answer, when it answered the form that posts `intent` (a
 * page of one form names none): a refusal (server/http/forms.ts), or a success that resets the
 * form (`submission.reply({ resetForm: true })`). Other successes are the page's own business.
 */
export function replyTo(answer: unknown, intent?: string): SubmissionResult<string[]> | undefined {
  if (typeof answer !== "object" || answer === null || !("result" in answer)) return undefined;
  const reply = answer as { intent?: unknown; result: SubmissionResult<string[]> };
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

type InputType = "text" | "email" | "password" | "number";
type Metadata = FieldMetadata<string | undefined>;

/** What every field takes besides its control's attributes: `frame` classes the field's frame (its layout in the form). */
type FieldProps = { field: Metadata; label: string; hint?: ReactNode; frame?: string };

/** The frame of a field: its label, the control, the message and the hint. */
function FieldFrame({ field, label, hint, frame, children }: FieldProps & { children: ReactNode }) {
  const invalid = Boolean(field.errors?.length);
  return (
    <div className={["field", invalid && "field-invalid", frame].filter(Boolean).join(" ")}>
      <label htmlFor={field.id}>{label}</label>
      {children}
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

/**
 * A labelled input wired from Conform's metadata; `hint` stays under it, the message too; `unit`
 * (a currency) is written after the input.
 */
export function Field({
  field,
  label,
  hint,
  frame,
  unit,
  type = "text",
  ...input
}: FieldProps & { unit?: string; type?: InputType } & Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "id" | "name" | "form" | "defaultValue">) {
  const control = <input {...getInputProps(field, { type, ariaDescribedBy: hint ? field.descriptionId : undefined })} {...input} />;
  return (
    <FieldFrame field={field} label={label} hint={hint} frame={frame}>
      {unit === undefined ? (
        control
      ) : (
        <div className="amount-input">
          {control}
          <span className="amount-currency" aria-hidden="true">
            {unit}
          </span>
        </div>
      )}
    </FieldFrame>
  );
}

/** A labelled select wired like Field; its options are the children. */
export function SelectField({
  field,
  label,
  hint,
  frame,
  children,
  ...select
}: FieldProps & { children: ReactNode } & Omit<SelectHTMLAttributes<HTMLSelectElement>, "id" | "name" | "form" | "defaultValue">) {
  return (
    <FieldFrame field={field} label={label} hint={hint} frame={frame}>
      <select {...getSelectProps(field, { ariaDescribedBy: hint ? field.descriptionId : undefined })} {...select}>
        {children}
      </select>
    </FieldFrame>
  );
}

/** A labelled text area wired like Field. */
export function TextareaField({ field, label, hint, frame, ...textarea }: FieldProps & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id" | "name" | "form" | "defaultValue">) {
  return (
    <FieldFrame field={field} label={label} hint={hint} frame={frame}>
      <textarea {...getTextareaProps(field, { ariaDescribedBy: hint ? field.descriptionId : undefined })} {...textarea} />
    </FieldFrame>
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
