import { useContext, type ReactNode } from 'react';
import { Tabs } from '@mantine/core';
import { SessionContext } from '../../app/session-context.ts';
import { CdaExplorer } from './cda-explorer.tsx';

export const CDA_VIEWER_FEATURE = 'IntakeCdaViewer';

/** XML structured files (a C-CDA/CCD is XML); HL7 v2 messages (.hl7) are not. */
export const isXmlFileName = (fileName: string) => /\.(xml|cda|ccd)$/i.test(fileName);

/**
 * An XML attachment: with the IntakeCdaViewer feature the readable CDA Explorer first and its raw text
 * (Preview) second; without it, the Preview alone. Read without useSession so the viewer also renders
 * outside a signed-in session (tests).
 */
export function StructuredFileTabs({ xml, fileName, preview }: { xml: string; fileName: string; preview: ReactNode }) {
  const explorer = useContext(SessionContext)?.features.has(CDA_VIEWER_FEATURE) ?? false;
  return (
    // A panel mounts (and the explorer parses) only while its tab is open.
    <Tabs defaultValue={explorer ? 'cda-explorer' : 'preview'} keepMounted={false}>
      <Tabs.List>
        {explorer && <Tabs.Tab value="cda-explorer">CDA Explorer</Tabs.Tab>}
        <Tabs.Tab value="preview">Preview</Tabs.Tab>
      </Tabs.List>
      {explorer && (
        <Tabs.Panel value="cda-explorer" pt="sm">
          <CdaExplorer xml={xml} fileName={fileName} />
        </Tabs.Panel>
      )}
      <Tabs.Panel value="preview" pt="sm">
        {preview}
      </Tabs.Panel>
    </Tabs>
  );
}
