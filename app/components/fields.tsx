// A page form's markup (docs/product/routes.md#forms) without a form library: the form, a labelled
// input with its message and hint, wired for accessibility (its id, name, HTML constraints,
// aria-invalid and aria-describedby pointing at the message). It takes the form's state from
// Conform (page-form.tsx: usePageForm) or, on a page that hydrates, from `serverForm` below, which
// reads the server's last answer without Conform's ~9 KiB of browser code
// (docs/decisions/0047-hydrated-forms-without-conform.md). The server checks every post either way.
import { Form } from "react-router";
import type { FormEventHandler, InputHTMLAttributes, ReactNode } from "react";
import type { Constraint, SubmissionResult } from "@conform-to/dom";
import { FormMessage } from "./forms.tsx";

/** What the markup needs of a form's state: Conform's form metadata has it, and so has `serverForm`'s. */
export type FormView = { id: string; errorId: string; errors?: string[]; noValidate?: boolean; onSubmit?: FormEventHandler<HTMLFormElement> };

/** What the markup needs of a field's state: Conform's field metadata has it, and so has `serverForm`'s. */
export type FieldView = Constraint & {
  id: string;
  name: string;
  formId: string;
  errorId: string;
  descriptionId: string;
  errors?: string[];
  initialValue?: unknown;
};

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
 * A form's state as the server's last answer left it, the same as Conform's on its first render
 * (`useForm` with `lastResult`): the ids Conform gives (`{form}-{field}`, `-error`,
 * `-description`), each field's messages, what was typed (else `defaultValue`) and its HTML
 * constraints. Nothing is checked in the browser; a new answer is a new state.
 */
export function serverForm<C extends Record<string, Constraint>>(
  id: string,
  constraint: C,
  options: { lastResult?: SubmissionResult<string[]>; defaultValue?: Partial<Record<keyof C, string>> } = {},
): { form: FormView; fields: Record<keyof C & string, FieldView> } {
  const { lastResult, defaultValue = {} } = options;
  // A reply that reset the form (`initialValue: null`) shows the defaults again.
  const values: Record<string, unknown> = lastResult?.initialValue ?? defaultValue;
  const errorsOf = (name: string) => lastResult?.error?.[name] ?? undefined;
  const fields = Object.fromEntries(
    Object.entries(constraint).map(([name, rules]) => {
      const fieldId = `${id}-${name}`;
      const field: FieldView = {
        ...rules,
        id: fieldId,
        name,
        formId: id,
        errorId: `${fieldId}-error`,
        descriptionId: `${fieldId}-description`,
        errors: errorsOf(name),
        initialValue: values[name],
      };
      return [name, field];
    }),
  ) as Record<keyof C & string, FieldView>;
  return { form: { id, errorId: `${id}-error`, errors: errorsOf(""), noValidate: true }, fields };
}

/** aria-describedby of a control or form: its message while it has one, then `describedBy` (Conform's rule). */
function describedBy(state: { errors?: string[]; errorId: string }, also?: string): string | undefined {
  return state.errors !== undefined ? `${state.errorId} ${also ?? ""}`.trim() : also;
}

/**
 * A page form: posts to its route (without JavaScript as with it), `noValidate` so that the page
 * shows the server's messages instead of the browser's bubbles, and the form's message first,
 * where its aria-describedby points.
 */
export function PageForm({ form, className = "form", children }: { form: FormView; className?: string; children: ReactNode }) {
  return (
    <Form method="post" className={className} id={form.id} onSubmit={form.onSubmit} noValidate={form.noValidate} aria-describedby={describedBy(form)}>
      <FormMessage errors={form.errors} id={form.errorId} />
      {children}
    </Form>
  );
}

/** What every field takes besides its control's attributes: `frame` classes the field's frame (its layout in the form). */
export type FieldProps = { field: FieldView; label: string; hint?: ReactNode; frame?: string };

/** The frame of a field: its label, the control, the message and the hint. */
export function FieldFrame({ field, label, hint, frame, children }: FieldProps & { children: ReactNode }) {
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

type InputType = "text" | "email" | "password" | "number";

/**
 * An input's attributes from its field's state, as Conform's getInputProps makes them (same
 * attributes, same order; React writes no attribute that is undefined).
 */
function inputProps(field: FieldView, type: InputType, ariaDescribedBy: string | undefined): InputHTMLAttributes<HTMLInputElement> {
  return {
    required: field.required || undefined,
    id: field.id,
    name: field.name,
    form: field.formId,
    "aria-invalid": field.errors !== undefined || undefined,
    "aria-describedby": describedBy(field, ariaDescribedBy),
    type,
    minLength: field.minLength,
    maxLength: field.maxLength,
    min: field.min,
    max: field.max,
    step: field.step,
    pattern: field.pattern,
    multiple: field.multiple,
    accept: field.accept,
    defaultValue: typeof field.initialValue === "string" ? field.initialValue : undefined,
  };
}

/**
 * A labelled input; `hint` stays under it, the message too; `unit` (a currency) is written after
 * the input.
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
  const control = <input {...inputProps(field, type, hint ? field.descriptionId : undefined)} {...input} />;
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
