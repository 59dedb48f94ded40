import { useCallback, useId, useMemo, useState, type MouseEvent, type ReactNode } from 'react';
import { Alert, Anchor, Box, Button, Card, Group, SimpleGrid, Stack, Text, Title, type TitleOrder } from '@mantine/core';
import { DocumentViewer, type PdfLoader } from '../document-viewer/document-viewer.tsx';
import { Narrative } from './narrative.tsx';
import {
  CdaParseError,
  decodeBase64,
  formatHl7Date,
  formatPeriod,
  parseCda,
  type CdaDocument,
  type CdaHeader,
  type CdaId,
  type CdaNonXmlBody,
  type CdaParty,
  type CdaPatient,
  type CdaSection,
  type CdaTelecom,
} from './parse-cda.ts';

type Parsed = { document: CdaDocument; error?: undefined } | { document?: undefined; error: string };

function read(xml: string): Parsed {
  try {
    return { document: parseCda(xml) };
  } catch (error) {
    return { error: error instanceof CdaParseError ? error.message : 'This document could not be read.' };
  }
}

/**
 * A readable rendering of a C-CDA document: header, table of contents and every section's narrative,
 * built from the parsed XML (never a stylesheet or script from the document).
 */
export function CdaExplorer({ xml, fileName }: { xml: string; fileName?: string }) {
  const parsed = useMemo(() => read(xml), [xml]);
  if (parsed.error !== undefined) {
    return (
      <Alert color="red" title="Unable to show this document">
        {parsed.error}
      </Alert>
    );
  }
  return <CdaDocumentView document={parsed.document} fileName={fileName} />;
}

function CdaDocumentView({ document, fileName }: { document: CdaDocument; fileName?: string }) {
  // Element ids come from the section's position and this instance, never from the document.
  const baseId = useId();
  const sectionId = useCallback((key: string) => `${baseId}-cda-section-${key.replaceAll('.', '-')}`, [baseId]);
  return (
    <Stack gap="md">
      <Title order={2}>{document.header.title}</Title>
      <HeaderCard header={document.header} />
      {document.nonXmlBody && <NonXmlBody body={document.nonXmlBody} fileName={fileName ?? document.header.title} />}
      {document.sections.length > 0 && <TableOfContents sections={document.sections} sectionId={sectionId} />}
      {document.sections.map((section) => (
        <SectionView key={section.key} section={section} level={3} sectionId={sectionId} />
      ))}
    </Stack>
  );
}

// ---------------------------------------------------------------------------------------------------
// Header

function Detail({ label, children }: { label: string; children: ReactNode }) {
  if (children === undefined || children === null || children === false || children === '' || (Array.isArray(children) && children.length === 0)) return null;
  return (
    <>
      <Text component="dt" size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      {/* Long OIDs and identifiers break anywhere rather than run into the next column. */}
      <Text component="dd" size="sm" m={0} mb={6} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </>
  );
}

function Block({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box>
      <Text fw={700} size="sm" mb={4}>
        {title}
      </Text>
      <Box component="dl" m={0}>
        {children}
      </Box>
    </Box>
  );
}

const idText = (id: CdaId) => (id.label ? `${id.label} ${id.extension ?? id.root}` : id.extension ? `${id.extension} (${id.root ?? 'no authority'})` : (id.root ?? ''));

const TELECOM_USES: Record<string, string> = { H: 'home', HP: 'home', HV: 'vacation home', WP: 'work', MC: 'mobile', PG: 'pager', EC: 'emergency' };

function telecomText(telecom: CdaTelecom): string {
  // Shown as text only: a tel:, mailto: or fax: address is never made a link.
  const value = telecom.value.replace(/^(tel|mailto):/i, '').replace(/^fax:/i, 'fax ');
  const use = telecom.use ? telecom.use.split(/\s+/).map((u) => TELECOM_USES[u] ?? u).join(', ') : '';
  return use ? `${value} (${use})` : value;
}

const joinLines = (values: string[]) =>
  values.length === 0
    ? undefined
    : values.map((value, index) => (
        <span key={index}>
          {index > 0 && <br />}
          {value}
        </span>
      ));

function PatientBlock({ patient }: { patient: CdaPatient }) {
  return (
    <Block title="Patient">
      <Detail label="Name">{patient.name?.text}</Detail>
      <Detail label="Other names">{joinLines(patient.otherNames.map((n) => n.text))}</Detail>
      <Detail label="Date of birth">{formatHl7Date(patient.birthTime)}</Detail>
      <Detail label="Gender">{patient.gender}</Detail>
      <Detail label="IDs">{joinLines(patient.ids.map(idText))}</Detail>
      <Detail label="Address">{joinLines(patient.addresses.map((a) => a.text))}</Detail>
      <Detail label="Telecom">{joinLines(patient.telecoms.map(telecomText))}</Detail>
      <Detail label="Race">{patient.race.join(', ')}</Detail>
      <Detail label="Ethnicity">{patient.ethnicity.join(', ')}</Detail>
      <Detail label="Marital status">{patient.maritalStatus}</Detail>
      <Detail label="Language">{patient.language}</Detail>
    </Block>
  );
}

const partyText = (party: CdaParty) => [party.name, party.organization].filter(Boolean).join(', ');

function HeaderCard({ header }: { header: CdaHeader }) {
  const encounter = header.encounter;
  return (
    <Card withBorder padding="md" component="section" aria-label="Document header">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        {header.patients.length === 0 ? (
          <Text c="dimmed">No patient in this document.</Text>
        ) : (
          header.patients.map((patient, index) => <PatientBlock key={index} patient={patient} />)
        )}
        <Block title="Document">
          <Detail label="Type">{header.code?.displayName ?? header.code?.code}</Detail>
          <Detail label="Date">{formatHl7Date(header.effectiveTime)}</Detail>
          <Detail label="Confidentiality">{header.confidentiality}</Detail>
          <Detail label={header.authors.length > 1 ? 'Authors' : 'Author'}>
            {joinLines(header.authors.map((a) => [partyText(a), a.time ? formatHl7Date(a.time) : ''].filter(Boolean).join(' — ')))}
          </Detail>
          <Detail label="Custodian">{header.custodian}</Detail>
          {header.legalAuthenticator && (
            <Detail label="Legal authenticator">
              {[partyText(header.legalAuthenticator), formatHl7Date(header.legalAuthenticator.time)].filter(Boolean).join(' — ')}
            </Detail>
          )}
          {header.serviceEvents.map((event, index) => (
            <Detail key={index} label="Service event">
              {[event.code?.displayName, formatPeriod(event.period), event.performers.join(', ')].filter(Boolean).join(' — ')}
            </Detail>
          ))}
        </Block>
        {encounter && (
          <Block title="Encounter">
            <Detail label="Type">{encounter.code?.displayName ?? encounter.code?.code}</Detail>
            <Detail label="Dates">{formatPeriod(encounter.period)}</Detail>
            <Detail label="Location">{encounter.location}</Detail>
            <Detail label="Responsible party">{encounter.responsibleParty}</Detail>
            <Detail label="Discharge disposition">{encounter.dischargeDisposition}</Detail>
            <Detail label="IDs">{joinLines(encounter.ids.map(idText))}</Detail>
          </Block>
        )}
      </SimpleGrid>
    </Card>
  );
}

// ---------------------------------------------------------------------------------------------------
// Table of contents and sections

type SectionIdOf = (key: string) => string;

function jumpTo(id: string) {
  return (event: MouseEvent<HTMLAnchorElement>) => {
    // The URL's hash is left alone (the router owns the URL); the heading takes focus for keyboard users.
    event.preventDefault();
    const heading = document.getElementById(id);
    heading?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    heading?.focus({ preventScroll: true });
  };
}

function TableOfContents({ sections, sectionId }: { sections: CdaSection[]; sectionId: SectionIdOf }) {
  return (
    <Card withBorder padding="md" component="nav" aria-label="Table of contents">
      <Text fw={700} size="sm" mb={4}>
        Contents
      </Text>
      <TocList sections={sections} sectionId={sectionId} />
    </Card>
  );
}

function TocList({ sections, sectionId }: { sections: CdaSection[]; sectionId: SectionIdOf }) {
  return (
    <Box component="ul" m={0} pl="md">
      {sections.map((section) => (
        <li key={section.key}>
          <Anchor href={`#${sectionId(section.key)}`} onClick={jumpTo(sectionId(section.key))} size="sm">
            {section.title}
          </Anchor>
          {section.sections.length > 0 && <TocList sections={section.sections} sectionId={sectionId} />}
        </li>
      ))}
    </Box>
  );
}

function SectionView({ section, level, sectionId }: { section: CdaSection; level: number; sectionId: SectionIdOf }) {
  const id = sectionId(section.key);
  return (
    <Box component="section" aria-labelledby={id}>
      <Title order={Math.min(level, 6) as TitleOrder} id={id} tabIndex={-1} mb="xs" style={{ scrollMarginTop: 16 }}>
        {section.title}
      </Title>
      {section.narrative.length > 0 ? (
        <Box fz="sm">
          <Narrative nodes={section.narrative} />
        </Box>
      ) : (
        section.sections.length === 0 && (
          <Text size="sm" c="dimmed">
            No narrative text.
          </Text>
        )
      )}
      {section.sections.length > 0 && (
        <Stack gap="sm" pl="md" mt="sm">
          {section.sections.map((sub) => (
            <SectionView key={sub.key} section={sub} level={level + 1} sectionId={sectionId} />
          ))}
        </Stack>
      )}
    </Box>
  );
}

// ---------------------------------------------------------------------------------------------------
// Unstructured document (nonXMLBody)

export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

const isPdf = (bytes: Uint8Array) => bytes.length > 4 && String.fromCharCode(...bytes.subarray(0, 5)) === '%PDF-';

function NonXmlBody({ body, fileName }: { body: CdaNonXmlBody; fileName: string }) {
  const [open, setOpen] = useState(false);
  const base64 = body.base64;
  const load = useCallback<PdfLoader>(async () => {
    const bytes = decodeBase64(base64 ?? '');
    if (!isPdf(bytes)) throw new Error('The embedded file is not a PDF.');
    return bytes;
  }, [base64]);

  if (body.base64 !== undefined && body.mediaType === 'application/pdf') {
    return (
      <Stack gap="sm">
        <Alert color="blue" title="Embedded document">
          <Group justify="space-between" gap="sm">
            <Text size="sm">{`This document embeds a PDF (${sizeText(body.sizeBytes ?? 0)}).`}</Text>
            {!open && (
              <Button size="xs" variant="light" onClick={() => setOpen(true)}>
                View embedded PDF
              </Button>
            )}
          </Group>
        </Alert>
        {open && <DocumentViewer load={load} fileName={`${fileName.replace(/\.[^./\\]+$/, '')}.pdf`} />}
      </Stack>
    );
  }
  if (body.base64 !== undefined) {
    return (
      <Alert color="blue" title="Embedded document">
        {`This document embeds a file of type ${body.mediaType} (${sizeText(body.sizeBytes ?? 0)}), which the CDA Explorer does not show.`}
      </Alert>
    );
  }
  return (
    <Alert color="blue" title="Unstructured document">
      {body.reference && <Text size="sm">{`This document refers to an external file (${body.reference}), which is not loaded.`}</Text>}
      {body.text && (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {body.text}
        </Text>
      )}
    </Alert>
  );
}
