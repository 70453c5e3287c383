// The forms of the pages (docs/product/routes.md#forms) with Conform: the form's state, and the
// select, text area and checkbox wired from Conform's field metadata (the form, the input, the
// frame and the message are fields.tsx's). The pages that only hold forms do not hydrate, so
// Conform runs on the server there and costs the browser nothing
// (docs/decisions/0009-forms-on-the-server.md); a page that hydrates must not import this module
// (~9 KiB gzip): its forms take their state from fields.tsx's serverForm. No Zod here: constraints
// come as plain data.
import { getInputProps, getSelectProps, getTextareaProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import type { Constraint, DefaultValue } from "@conform-to/dom";
import type { ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";
import { FieldFrame, type FieldProps } from "./fields.tsx";

// The form and its inputs are markup that needs no library (fields.tsx): the same for a Conform
// form here and for a hydrated page's form without Conform.
export { Field, PageForm, replyTo } from "./fields.tsx";

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

/** A field wired from Conform's metadata: FieldProps with the field Conform's getters read. */
type ConformFieldProps = Omit<FieldProps, "field"> & { field: FieldMetadata<string | undefined> };

/** A labelled select wired like Field; its options are the children. */
export function SelectField({
  field,
  label,
  hint,
  frame,
  children,
  ...select
}: ConformFieldProps & { children: ReactNode } & Omit<SelectHTMLAttributes<HTMLSelectElement>, "id" | "name" | "form" | "defaultValue">) {
  return (
    <FieldFrame field={field} label={label} hint={hint} frame={frame}>
      <select {...getSelectProps(field, { ariaDescribedBy: hint ? field.descriptionId : undefined })} {...select}>
        {children}
      </select>
    </FieldFrame>
  );
}

/** A labelled text area wired like Field. */
export function TextareaField({ field, label, hint, frame, ...textarea }: ConformFieldProps & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id" | "name" | "form" | "defaultValue">) {
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
