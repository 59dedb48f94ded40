import { Anchor, Checkbox, Select, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { COLOR_CODES, RESELLER_MESSAGE_MAX, RESELLER_TEXT_MAX, RESELLER_TYPES, resellerInput, resellerMessages, type Reseller } from '@clinicrelay/contracts/resellers.ts';
import type { z } from 'zod';
import { deleteReseller, fetchResellers, resellerKeys, saveReseller } from '../../api/resellers.ts';
import type { ListColumn } from '../../components/list-page.tsx';
import { LogoInput, logoFile } from '../../components/logo-input.tsx';
import { AdminListArea } from '../admin-list-area.tsx';
import { UrlCodeInput } from './url-code-input.tsx';

// `logo` is the field the server names in its logo errors.
const resellerForm = resellerInput.extend({ logo: logoFile });
type Values = z.output<typeof resellerForm>;

const typeName = (type: number) => RESELLER_TYPES.find((t) => t.value === type)?.label ?? String(type);

const columns: ListColumn<Reseller>[] = [
  { key: 'name', header: 'Name', sortable: true },
  { key: 'type', header: 'Type', width: 110, render: (row) => typeName(row.type) },
  {
    key: 'fullUrl',
    header: 'Full URL',
    render: (row) =>
      row.fullUrl && (
        <Anchor href={row.fullUrl} target="_blank" rel="noreferrer">
          {row.fullUrl}
        </Anchor>
      ),
  },
  { key: 'affiliateUrlTag', header: 'Affiliate URL Tag' },
];

const blank: Values = {
  type: 0,
  name: '',
  affiliateUrlTag: '',
  sponsor: '',
  registrationText: '',
  welcomeText: '',
  welcomeMessageId: null,
  urlCode: '',
  logoBackgroundColor: 'ffffff',
  bypassTos: false,
  faxHandledByReseller: false,
  logo: null,
};

const valuesOf = (row: Reseller): Values => ({
  type: row.type === 1 ? 1 : 0,
  name: row.name,
  affiliateUrlTag: row.affiliateUrlTag ?? '',
  sponsor: row.sponsor ?? '',
  registrationText: row.registrationText ?? '',
  welcomeText: row.welcomeText ?? '',
  welcomeMessageId: row.welcomeMessageId,
  urlCode: row.urlCode ?? '',
  logoBackgroundColor: COLOR_CODES.find((c) => c.value === row.logoBackgroundColor)?.value ?? null,
  bypassTos: row.bypassTos,
  faxHandledByReseller: row.faxHandledByReseller,
  logo: null,
});

const save = (id: string | null, { logo, ...reseller }: Values) => saveReseller(id, reseller, logo);

function MessageInput({ form, field, label }: { form: UseFormReturnType<Values>; field: 'welcomeText' | 'registrationText'; label: string }) {
  const length = form.values[field]?.length ?? 0;
  return <Textarea label={label} rows={3} maxLength={RESELLER_MESSAGE_MAX} description={`${length}/${RESELLER_MESSAGE_MAX} characters`} {...form.getInputProps(field)} />;
}

function ResellerFields({ form, row }: { form: UseFormReturnType<Values>; row: Reseller | null }) {
  return (
    <>
      <TextInput label="Name" required maxLength={RESELLER_TEXT_MAX} data-autofocus {...form.getInputProps('name')} />
      <Select
        label="Type"
        required
        allowDeselect={false}
        data={RESELLER_TYPES.map((t) => ({ value: String(t.value), label: t.label }))}
        value={String(form.values.type)}
        onChange={(value) => form.setFieldValue('type', value === '1' ? 1 : 0)}
        error={form.errors.type}
      />
      <UrlCodeInput form={form} resellerId={row?.id ?? null} />
      <TextInput label="Affiliate URL Tag" maxLength={RESELLER_TEXT_MAX} {...form.getInputProps('affiliateUrlTag')} />
      <TextInput label="Sponsor" maxLength={RESELLER_TEXT_MAX} {...form.getInputProps('sponsor')} />
      <LogoInput label="Logo" {...form.getInputProps('logo')} value={form.values.logo} currentUrl={row?.logoUrl ?? null} background={form.values.logoBackgroundColor} />
      <Select label="Background colour" data={[...COLOR_CODES]} clearable {...form.getInputProps('logoBackgroundColor')} />
      <MessageInput form={form} field="welcomeText" label="Welcome message" />
      <MessageInput form={form} field="registrationText" label="Registration message" />
      <Checkbox label="Bypass terms of service" {...form.getInputProps('bypassTos', { type: 'checkbox' })} />
      <Checkbox label="Fax handled by reseller" {...form.getInputProps('faxHandledByReseller', { type: 'checkbox' })} />
    </>
  );
}

/** /admin/resellers (back-office-a §2 "Resellers"): name, type, full URL and affiliate URL tag; edit with logo and URL code. */
export function ResellersPage() {
  return (
    <AdminListArea<Reseller, Values>
      title="Resellers"
      entityName="reseller"
      queryKey={resellerKeys}
      columns={columns}
      fetchPage={async (state, signal) => {
        const page = await fetchResellers(state, signal);
        return { items: page.resellers, totalCount: page.totalResellersCount };
      }}
      form={{ schema: resellerForm, blank, valuesOf, fields: (form, row) => <ResellerFields form={form} row={row} /> }}
      create={(values) => save(null, values)}
      update={(row, values) => save(row.id, values)}
      remove={(row) => deleteReseller(row.id)}
      rowName={(row) => row.name}
      messages={{ saved: resellerMessages.saved, deleted: resellerMessages.deleted }}
    />
  );
}
