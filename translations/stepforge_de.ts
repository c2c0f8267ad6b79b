<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
<context>
    <name>CampaignRunState</name>
    <message>
        <location filename="../widgets/campaign/campaign_feed.cpp" line="+20"/>
        <source>idle</source>
        <translation>bereit</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>paused</source>
        <translation>angehalten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>following</source>
        <translation>wird verfolgt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>replaying</source>
        <translation>Wiedergabe</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>finished</source>
        <translation>beendet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>paused (needs attention)</source>
        <translation>angehalten (Eingriff nötig)</translation>
    </message>
</context>
<context>
    <name>TracePane</name>
    <message>
        <location line="+341"/>
        <source>(the prompt cannot be shown: %1)</source>
        <translation>(der Prompt kann nicht angezeigt werden: %1)</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../app/gui/main.cpp" line="+39"/>
        <source>StepForge workbench</source>
        <translation>StepForge-Werkbank</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Verify the document, save a PNG of the window, exit.</source>
        <translation>Dokument verifizieren, ein PNG des Fensters speichern, beenden.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Start a new buffer for a bundled task.</source>
        <translation>Einen neuen Puffer für eine mitgelieferte Aufgabe beginnen.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open a campaign workspace (finished, or live: followed).</source>
        <translation>Einen Kampagnen-Arbeitsbereich öffnen (beendet oder laufend: wird verfolgt).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Replay a recorded campaign workspace in the presentation layout.</source>
        <translation>Einen aufgezeichneten Kampagnen-Arbeitsbereich im Präsentationslayout wiedergeben.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>With --demo: render the replay offscreen to DIR/frame_NNNNN.png and DIR/captions.srt, then exit.</source>
        <translation>Mit --demo: die Wiedergabe offscreen nach DIR/frame_NNNNN.png und DIR/captions.srt rendern, dann beenden.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Frames per second of --record (default 10).</source>
        <translation>Bilder pro Sekunde für --record (Standard 10).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Frame size of --record (default 1920x1080).</source>
        <translation>Bildgröße für --record (Standard 1920x1080).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Task document or solution file.</source>
        <translation>Aufgabendokument oder Lösungsdatei.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>stepforge: cannot open %1</source>
        <translation>stepforge: %1 kann nicht geöffnet werden</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>stepforge: --record needs --demo WORKSPACE</source>
        <translation>stepforge: --record braucht --demo ARBEITSBEREICH</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>%1 frames and %2 captions in %3</source>
        <translation>%1 Bilder und %2 Untertitel in %3</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>stepforge: cannot write %1</source>
        <translation>stepforge: %1 kann nicht geschrieben werden</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>stepforge: timed out waiting for the verification</source>
        <translation>stepforge: Zeitüberschreitung beim Warten auf die Verifikation</translation>
    </message>
</context>
<context>
    <name>record</name>
    <message>
        <location filename="../widgets/campaign/demo_recorder.cpp" line="+59"/>
        <source>--fps must be between 1 and 120</source>
        <translation>--fps muss zwischen 1 und 120 liegen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>--size must be WIDTHxHEIGHT, e.g. 1920x1080</source>
        <translation>--size muss BREITExHÖHE sein, z. B. 1920x1080</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>cannot create %1</source>
        <translation>%1 kann nicht angelegt werden</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>the replay did not start</source>
        <translation>die Wiedergabe ist nicht gestartet</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>the replay did not reach event %1</source>
        <translation>die Wiedergabe hat Ereignis %1 nicht erreicht</translation>
    </message>
    <message>
        <location line="+9"/>
        <location line="+23"/>
        <source>cannot write %1</source>
        <translation>%1 kann nicht geschrieben werden</translation>
    </message>
</context>
<context>
    <name>sf::widgets</name>
    <message>
        <location filename="../widgets/engine/engine_jobs.cpp" line="+13"/>
        <source>Check</source>
        <translation>Prüfen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Simulate</source>
        <translation>Simulieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verify</source>
        <translation>Verifizieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rewrite</source>
        <translation>Umschreiben</translation>
    </message>
    <message>
        <location line="+125"/>
        <source>the program can only be rewritten in a block `impl: |`</source>
        <translation>das Programm kann nur in einem Block `impl: |` umgeschrieben werden</translation>
    </message>
</context>
<context>
    <name>sf::widgets::AgentDocks</name>
    <message>
        <location filename="../widgets/editor/agent_docks.cpp" line="+29"/>
        <location line="+44"/>
        <source>Agent</source>
        <translation>Agent</translation>
    </message>
    <message>
        <location line="-34"/>
        <source>Help</source>
        <translation>Hilfe</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A&amp;gent</source>
        <translation>A&amp;gent</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Propose</source>
        <translation>&amp;Vorschlagen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ctrl+Alt+P</source>
        <translation>Ctrl+Alt+P</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ask the agent for a program for this task, from scratch</source>
        <translation>Den Agenten um ein Programm für diese Aufgabe bitten, von Grund auf</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Repair</source>
        <translation>&amp;Reparieren</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ctrl+Alt+R</source>
        <translation>Ctrl+Alt+R</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Send the program with its diagnostics or failing verdict and ask for a fix</source>
        <translation>Das Programm mit seinen Diagnosen oder dem fehlgeschlagenen Urteil senden und um eine Korrektur bitten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Optimise</source>
        <translation>&amp;Optimieren</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ctrl+Alt+O</source>
        <translation>Ctrl+Alt+O</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Send the correct program with its cost-model feedback and ask for a faster one</source>
        <translation>Das korrekte Programm mit der Rückmeldung des Kostenmodells senden und um ein schnelleres bitten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Ask…</source>
        <translation>&amp;Fragen…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ctrl+Alt+A</source>
        <translation>Ctrl+Alt+A</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A round with your own instruction added</source>
        <translation>Eine Runde mit einer eigenen Anweisung</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Promote Editor Program to &amp;Golden</source>
        <translation>Programm des Editors zu &amp;Gold befördern</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ctrl+Alt+G</source>
        <translation>Ctrl+Alt+G</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verify the editor&apos;s program and add it to the golden set (refused with the reason when it does not verify)</source>
        <translation>Das Programm des Editors verifizieren und zur goldenen Menge hinzufügen (abgelehnt mit Begründung, wenn es nicht verifiziert)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Cancel Agent</source>
        <translation>Agent a&amp;bbrechen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ctrl+Alt+K</source>
        <translation>Ctrl+Alt+K</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Agent &amp;Preferences…</source>
        <translation>Agent-&amp;Einstellungen…</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The %1 decision was not logged: %2</source>
        <translation>Die Entscheidung %1 wurde nicht protokolliert: %2</translation>
    </message>
    <message>
        <location line="+129"/>
        <source>Not promoted: %1</source>
        <translation>Nicht aufgenommen: %1</translation>
    </message>
    <message>
        <location line="-84"/>
        <source>Ask the agent</source>
        <translation>Den Agenten fragen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>e.g. use Partition to spread the experts over lanes</source>
        <translation>z. B. verwende Partition, um die Experten auf die Lanes zu verteilen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Propose (from scratch)</source>
        <translation>Vorschlagen (von Grund auf)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Repair this program</source>
        <translation>Dieses Programm reparieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optimise this program</source>
        <translation>Dieses Programm optimieren</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&amp;Instruction:</source>
        <translation>&amp;Anweisung:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Round:</source>
        <translation>&amp;Runde:</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Agent %1: %2</source>
        <translation>Agent %1: %2</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>Promoting (verifying)…</source>
        <translation>Wird befördert (verifiziert)…</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Promoting (verifying again)…</source>
        <translation>Wird aufgenommen (erneut verifiziert)…</translation>
    </message>
</context>
<context>
    <name>sf::widgets::AgentPanel</name>
    <message>
        <location filename="../widgets/editor/agent_panel.cpp" line="+28"/>
        <source>accepted</source>
        <translation>übernommen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>rejected</source>
        <translation>verworfen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>restored</source>
        <translation>wiederhergestellt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>undecided</source>
        <translation>offen</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Repair</source>
        <translation>Reparieren</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Optimise</source>
        <translation>Optimieren</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Propose</source>
        <translation>Vorschlagen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>error: %1</source>
        <translation>Fehler: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>verified</source>
        <translation>verifiziert</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 cycles</source>
        <translation>%1 Zyklen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>speedup %1</source>
        <translation>Beschleunigung %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not feasible</source>
        <translation>nicht realisierbar</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>does not verify: %1 %2 at %3:%4: %5</source>
        <translation>verifiziert nicht: %1 %2 bei %3:%4: %5</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>does not verify: %1</source>
        <translation>verifiziert nicht: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>endpoint failed: %1</source>
        <translation>Endpunkt fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no program: %1</source>
        <translation>kein Programm: %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Agent idle — Agent → Propose, Repair, Optimise or Ask…</source>
        <translation>Agent bereit — Agent → Vorschlagen, Reparieren, Optimieren oder Fragen…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Accept</source>
        <translation>Übernehmen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reject</source>
        <translation>Verwerfen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Promote to golden</source>
        <translation>Zu Gold befördern</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Restore</source>
        <translation>Wiederherstellen</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Stop the round now (the request is aborted)</source>
        <translation>Die Runde sofort beenden (die Anfrage wird abgebrochen)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The model&apos;s answer appears here as it arrives.</source>
        <translation>Die Antwort des Modells erscheint hier, während sie eintrifft.</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Replace the editor&apos;s program by the proposal (one undoable edit)</source>
        <translation>Das Programm im Editor durch den Vorschlag ersetzen (eine rückgängig machbare Änderung)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Add the accepted, verified program to the golden demonstrations (verified again)</source>
        <translation>Das übernommene, verifizierte Programm zu den goldenen Beispielen hinzufügen (erneut verifiziert)</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Memory item</source>
        <translation>Gedächtniseintrag</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Adopted</source>
        <translation>Übernommen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Rationale</source>
        <translation>Begründung</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Put this round&apos;s proposal into the editor (one undoable edit)</source>
        <translation>Den Vorschlag dieser Runde in den Editor setzen (eine rückgängig machbare Änderung)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Review</source>
        <translation>Prüfung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>History</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>» %1</source>
        <translation>» %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: waiting for the model…</source>
        <translation>%1: wartet auf das Modell…</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>%1: searching…</source>
        <translation>%1: sucht…</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1: streaming…</source>
        <translation>%1: Antwort kommt…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1: thinking…</source>
        <translation>%1: denkt nach…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: checking and verifying…</source>
        <translation>%1: prüfen und verifizieren…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 tokens in, %2 out</source>
        <translation>%1 Tokens hinein, %2 heraus</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cost unknown</source>
        <translation>Kosten unbekannt</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>— cancelled —</source>
        <translation>— abgebrochen —</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Round %1 · %2 · task %3</source>
        <translation>Runde %1 · %2 · Aufgabe %3</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>editor (empty)</source>
        <translation>Editor (leer)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>editor</source>
        <translation>Editor</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>proposal (verified)</source>
        <translation>Vorschlag (verifiziert)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>proposal (does not verify)</source>
        <translation>Vorschlag (verifiziert nicht)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Guardian: %1</source>
        <translation>Wächter: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>(no change)</source>
        <translation>(keine Änderung)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Guardian: not run (no program to guard)</source>
        <translation>Wächter: nicht gelaufen (kein Programm)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Sent with the program:</source>
        <translation>Mit dem Programm gesendet:</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>not stated</source>
        <translation>nicht angegeben</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>shown at rank %1, relevance %2</source>
        <translation>auf Rang %1 gezeigt, Relevanz %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>resident rule</source>
        <translation>residente Regel</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>(nothing retrieved: no workspace memory, or nothing relevant in it)</source>
        <translation>(nichts abgerufen: kein Arbeitsbereich-Gedächtnis oder nichts Passendes darin)</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>#%1 %2 %3 — %4 — %5</source>
        <translation>#%1 %2 %3 — %4 — %5</translation>
    </message>
</context>
<context>
    <name>sf::widgets::AgentRunner</name>
    <message>
        <location filename="../widgets/editor/agent_runner.cpp" line="+85"/>
        <source>the OS keyring did not store the key (%1); it is used for this session only</source>
        <translation>der Schlüsselbund des Systems hat den Schlüssel nicht gespeichert (%1); er gilt nur für diese Sitzung</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>stored in the OS keyring as %1</source>
        <translation>im Schlüsselbund des Systems als %1 gespeichert</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>this build has no OS keyring; the key is used for this session only</source>
        <translation>dieser Build hat keinen Schlüsselbund; der Schlüssel gilt nur für diese Sitzung</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>backend in the preferences: %1</source>
        <translation>Backend in den Einstellungen: %1</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>memory workspace %1: %2</source>
        <translation>Gedächtnis-Arbeitsbereich %1: %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>session workspace %1: %2</source>
        <translation>Sitzungs-Arbeitsbereich %1: %2</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>task &apos;%1&apos; is not in the benchmark catalogue</source>
        <translation>Aufgabe &apos;%1&apos; ist nicht im Benchmark-Katalog</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the editor holds no task document or solution file</source>
        <translation>der Editor enthält kein Aufgabendokument und keine Lösungsdatei</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the document does not load: %1 at %2:%3</source>
        <translation>das Dokument lädt nicht: %1 bei %2:%3</translation>
    </message>
    <message>
        <location line="+102"/>
        <source>Not promoted: %1</source>
        <translation>Nicht aufgenommen: %1</translation>
    </message>
</context>
<context>
    <name>sf::widgets::AuditDocks</name>
    <message>
        <location filename="../widgets/audit/audit_docks.cpp" line="+17"/>
        <source>Adoption Audit</source>
        <translation>Übernahme-Audit</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Memory</source>
        <translation>Gedächtnis</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Replay: the records follow the replayed events</source>
        <translation>Wiedergabe: die Datensätze folgen den wiedergegebenen Ereignissen</translation>
    </message>
</context>
<context>
    <name>sf::widgets::AuditModel</name>
    <message>
        <location filename="../widgets/audit/audit_model.cpp" line="+145"/>
        <source>No campaign workspace is open.</source>
        <translation>Kein Kampagnen-Arbeitsbereich geöffnet.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No adoption record selected.</source>
        <translation>Kein Übernahmedatensatz ausgewählt.</translation>
    </message>
    <message>
        <location line="+123"/>
        <source>adopted</source>
        <translation>übernommen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>not adopted</source>
        <translation>nicht übernommen</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>⚠ %1× suspicious</source>
        <translation>⚠ %1× verdächtig</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>A speedup above %1× is suspicious: check the program by hand</source>
        <translation>Eine Beschleunigung über %1× ist verdächtig: Programm von Hand prüfen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 by %2 at %3
%4</source>
        <translation>%1 von %2 um %3
%4</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>resolved after a re-ask</source>
        <translation>nach erneuter Nachfrage geklärt</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Episode</source>
        <translation>Episode</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Round</source>
        <translation>Runde</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Item</source>
        <translation>Eintrag</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Rank</source>
        <translation>Rang</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Score</source>
        <translation>Punktzahl</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Adopted</source>
        <translation>Übernommen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Rationale</source>
        <translation>Begründung</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Label</source>
        <translation>Bewertung</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Speedup</source>
        <translation>Beschleunigung</translation>
    </message>
</context>
<context>
    <name>sf::widgets::AuditPane</name>
    <message>
        <location filename="../widgets/audit/audit_pane.cpp" line="+42"/>
        <location line="+366"/>
        <source>All tasks</source>
        <translation>Alle Aufgaben</translation>
    </message>
    <message>
        <location line="-364"/>
        <source>Adopted or not</source>
        <translation>Übernommen oder nicht</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Adopted</source>
        <translation>Übernommen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not adopted</source>
        <translation>Nicht übernommen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Any label</source>
        <translation>Jede Bewertung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unlabelled</source>
        <translation>Unbewertet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Full</source>
        <translation>Vollständig</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Partial</source>
        <translation>Teilweise</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unrelated</source>
        <translation>Unabhängig</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Search rationale, item, task, note, rule</source>
        <translation>Begründung, Eintrag, Aufgabe, Notiz, Regel durchsuchen</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>N = </source>
        <translation>N = </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Seed of the random sample (the same seed draws the same records)</source>
        <translation>Seed der Zufallsstichprobe (derselbe Seed zieht dieselben Datensätze)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>New seed</source>
        <translation>Neuer Seed</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sample</source>
        <translation>Stichprobe</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show N records drawn at random for a blind audit</source>
        <translation>N zufällig gezogene Datensätze für ein Blind-Audit anzeigen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show all</source>
        <translation>Alle anzeigen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Blind</source>
        <translation>Blind</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>While sampling, hide the adoption claim, rank, score, existing labels and other auditors&apos; labels (B)</source>
        <translation>Beim Stichprobenziehen Übernahmeangabe, Rang, Punktzahl, vorhandene Bewertungen und die Bewertungen anderer Prüfer ausblenden (B)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Your name: labels are saved per auditor (kept in the preferences)</source>
        <translation>Ihr Name: Bewertungen werden pro Prüfer gespeichert (in den Einstellungen gemerkt)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Random sample:</source>
        <translation>Zufallsstichprobe:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Auditor</source>
        <translation>Prüfer</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Episode &amp;Lineage (L)</source>
        <translation>Episoden-&amp;Verlauf (L)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Before</source>
        <translation>Vorher</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After</source>
        <translation>Nachher</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>&amp;1 Full</source>
        <translation>&amp;1 Vollständig</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;2 Partial</source>
        <translation>&amp;2 Teilweise</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;3 Unrelated</source>
        <translation>&amp;3 Unabhängig</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The revision fully applies the experience (key 1)</source>
        <translation>Die Überarbeitung wendet die Erfahrung vollständig an (Taste 1)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The revision partly applies the experience (key 2)</source>
        <translation>Die Überarbeitung wendet die Erfahrung teilweise an (Taste 2)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The revision is unrelated to the experience (key 3)</source>
        <translation>Die Überarbeitung hat nichts mit der Erfahrung zu tun (Taste 3)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Note (saved with the next label; Ctrl+1/2/3 label, Ctrl+Enter completes)</source>
        <translation>Notiz (mit der nächsten Bewertung gespeichert; Ctrl+1/2/3 bewerten, Ctrl+Enter schließt ab)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Label (1/2/3, J/K to move, ? for all keys):</source>
        <translation>Bewertung (1/2/3, J/K zum Bewegen, ? für alle Tasten):</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Export CSV…</source>
        <translation>CSV exportieren…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export Markdown…</source>
        <translation>Markdown exportieren…</translation>
    </message>
    <message>
        <location line="+84"/>
        <source>Cannot open the audit of %1: %2</source>
        <translation>Das Audit von %1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>%n adoption record(s)</source>
        <translation>
            <numerusform>%n Übernahmedatensatz</numerusform>
            <numerusform>%n Übernahmedatensätze</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n malformed event(s) skipped</source>
        <translation>
            <numerusform>%n fehlerhaftes Ereignis übersprungen</numerusform>
            <numerusform>%n fehlerhafte Ereignisse übersprungen</numerusform>
        </translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Label not saved: %1</source>
        <translation>Bewertung nicht gespeichert: %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Labelled %1 as %2</source>
        <translation>%1 als %2 bewertet</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Choose a label first: 1 full, 2 partial, 3 unrelated</source>
        <translation>Zuerst eine Bewertung wählen: 1 vollständig, 2 teilweise, 3 ohne Bezug</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>1 / Ctrl+1 — label full and go to the next record
2 / Ctrl+2 — label partial and go to the next record
3 / Ctrl+3 — label unrelated and go to the next record
Ctrl+Enter — complete: save the note with your label and go to the next record
J / Ctrl+J — next record
K / Ctrl+K — previous record
N — write a note (focus the note field; Esc goes back to the table)
S — draw the random sample (N records, the seed shown)
A — show all records
B — blind on / off (hides the claim and other auditors&apos; labels)
L / Ctrl+L — episode lineage of the record&apos;s episode (rounds, programs, verdicts, adopted items)
? / F1 — this cheat sheet
Keys with Ctrl also work while the note field has focus.</source>
        <translation>1 / Ctrl+1 — als vollständig bewerten und zum nächsten Datensatz
2 / Ctrl+2 — als teilweise bewerten und zum nächsten Datensatz
3 / Ctrl+3 — als ohne Bezug bewerten und zum nächsten Datensatz
Ctrl+Enter — abschließen: die Notiz mit Ihrer Bewertung speichern und zum nächsten Datensatz
J / Ctrl+J — nächster Datensatz
K / Ctrl+K — vorheriger Datensatz
N — eine Notiz schreiben (Fokus ins Notizfeld; Esc zurück zur Tabelle)
S — die Zufallsstichprobe ziehen (N Datensätze, der Seed wird angezeigt)
A — alle Datensätze anzeigen
B — Blind ein / aus (blendet die Übernahmeangabe und die Bewertungen anderer Prüfer aus)
L / Ctrl+L — Episoden-Verlauf der Episode des Datensatzes (Runden, Programme, Befunde, übernommene Einträge)
? / F1 — diese Übersicht
Tasten mit Ctrl funktionieren auch, während das Notizfeld den Fokus hat.</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Choose a record first</source>
        <translation>Zuerst einen Datensatz wählen</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No episode lineage: %1</source>
        <translation>Kein Episoden-Verlauf: %1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Audit keyboard shortcuts</source>
        <translation>Audit-Tastenkürzel</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Sample of %1 of %2 records, seed %3</source>
        <translation>Stichprobe von %1 aus %2 Datensätzen, Seed %3</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>full</source>
        <translation>vollständig</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>partial</source>
        <translation>teilweise</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>unrelated</source>
        <translation>unabhängig</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 %2 (%3%)</source>
        <translation>%1 %2 (%3 %)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Sample: </source>
        <translation>Stichprobe: </translation>
    </message>
    <message>
        <location line="+0"/>
        <source>All records: </source>
        <translation>Alle Datensätze: </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of %2 labelled</source>
        <translation>%1 von %2 bewertet</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>undefined</source>
        <translation>undefiniert</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>vs %1: %2 both, %3% agree, κ %4, %5 disagreements</source>
        <translation>gegen %1: %2 beide, %3% Übereinstimmung, κ %4, %5 Abweichungen</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Export audit summary as Markdown</source>
        <translation>Audit-Zusammenfassung als Markdown exportieren</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Export audit summary as CSV</source>
        <translation>Audit-Zusammenfassung als CSV exportieren</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Summary written to %1</source>
        <translation>Zusammenfassung nach %1 geschrieben</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&lt;p&gt;&lt;i&gt;Select an adoption record.&lt;/i&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;i&gt;Wählen Sie einen Übernahmedatensatz.&lt;/i&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>from task %1, episode %2, %3 tokens</source>
        <translation>aus Aufgabe %1, Episode %2, %3 Token</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>from task %1, episode %2 (memory.json)</source>
        <translation>aus Aufgabe %1, Episode %2 (memory.json)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>(no experience_added event and no memory.json entry for this item)</source>
        <translation>(kein experience_added-Ereignis und kein memory.json-Eintrag für diesen Eintrag)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Experience %1</source>
        <translation>Erfahrung %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Rule</source>
        <translation>Regel</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Evidence</source>
        <translation>Beleg</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Task %1, episode %2, round %3</source>
        <translation>Aufgabe %1, Episode %2, Runde %3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>adopted</source>
        <translation>übernommen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>not adopted</source>
        <translation>nicht übernommen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>, rank %1, score %2, utility %3</source>
        <translation>, Rang %1, Punktzahl %2, Nutzen %3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Agent&apos;s rationale</source>
        <translation>Begründung des Agenten</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Before (no earlier round)</source>
        <translation>Vorher (keine frühere Runde)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Before (round %1: no program)</source>
        <translation>Vorher (Runde %1: kein Programm)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Before (round %1)</source>
        <translation>Vorher (Runde %1)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After (no program produced)</source>
        <translation>Nachher (kein Programm erzeugt)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After (round %1)</source>
        <translation>Nachher (Runde %1)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>yours: %1</source>
        <translation>Ihre: %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
<context>
    <name>sf::widgets::CampaignDialog</name>
    <message>
        <location filename="../widgets/campaign/campaign_dialog.cpp" line="+37"/>
        <source>the endpoint did not answer</source>
        <translation>der Endpunkt hat nicht geantwortet</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Nothing to connect to: %1.</source>
        <translation>Nichts zu verbinden: %1.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Connected to %1: %2 replied in %3 s.</source>
        <translation>Verbunden mit %1: %2 antwortete in %3 s.</translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>The endpoint lists %n model(s): %1.</source>
        <translation>
            <numerusform>Der Endpunkt führt %n Modell auf: %1.</numerusform>
            <numerusform>Der Endpunkt führt %n Modelle auf: %1.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>It does not list &apos;%1&apos;.</source>
        <translation>„%1“ ist dort nicht aufgeführt.</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>New Campaign</source>
        <translation>Neue Kampagne</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>e.g. OPENAI_API_KEY</source>
        <translation>z. B. OPENAI_API_KEY</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The name of the environment variable that holds the API key. The key itself is never written to the workspace, the log or a trace.</source>
        <translation>Der Name der Umgebungsvariable, die den API-Schlüssel enthält. Der Schlüssel selbst wird nie in den Arbeitsbereich, das Protokoll oder eine Aufzeichnung geschrieben.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>0.4, 0.7, 1.0</source>
        <translation>0.4, 0.7, 1.0</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>task ids or groups, comma separated (empty: the 26 benchmark tasks)</source>
        <translation>Aufgaben-IDs oder Gruppen, durch Kommas getrennt (leer: die 26 Benchmark-Aufgaben)</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+5"/>
        <location line="+5"/>
        <source>unlimited</source>
        <translation>unbegrenzt</translation>
    </message>
    <message>
        <location line="-1"/>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Preset:</source>
        <translation>Vorlage:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name:</source>
        <translation>Name:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Backend:</source>
        <translation>Backend:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Model:</source>
        <translation>Modell:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Base URL:</source>
        <translation>Basis-URL:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>API key variable:</source>
        <translation>Variable des API-Schlüssels:</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../widgets/settings_dialog.cpp" line="+231"/>
        <source>Connection:</source>
        <translation>Verbindung:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mode:</source>
        <translation>Modus:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Samples n:</source>
        <translation>Stichproben n:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Temperature (iteration 0):</source>
        <translation>Temperatur (Iteration 0):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Temperatures:</source>
        <translation>Temperaturen:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Difficulty levels m:</source>
        <translation>Schwierigkeitsstufen m:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Selection:</source>
        <translation>Auswahl:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tasks:</source>
        <translation>Aufgaben:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Token budget:</source>
        <translation>Token-Budget:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cost budget:</source>
        <translation>Kostenbudget:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Wall-time budget:</source>
        <translation>Zeitbudget:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Seed:</source>
        <translation>Seed:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Workspace folder:</source>
        <translation>Arbeitsbereich-Ordner:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Start</source>
        <translation>Starten</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Workspace folder (new or empty)</source>
        <translation>Arbeitsbereich-Ordner (neu oder leer)</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Test connection</source>
        <translation>Verbindung testen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Send one minimal request to the endpoint and list the models it serves</source>
        <translation>Eine minimale Anfrage an den Endpunkt senden und die angebotenen Modelle auflisten</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Testing %1 …</source>
        <translation>%1 wird getestet …</translation>
    </message>
    <message>
        <location line="+82"/>
        <source>Temperatures: &apos;%1&apos; is not a number</source>
        <translation>Temperaturen: „%1“ ist keine Zahl</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Choose a workspace folder</source>
        <translation>Arbeitsbereich-Ordner wählen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 already holds a campaign (open it with Campaign → Open Workspace)</source>
        <translation>%1 enthält bereits eine Kampagne (öffnen mit Kampagne → Arbeitsbereich öffnen)</translation>
    </message>
</context>
<context>
    <name>sf::widgets::CampaignDocks</name>
    <message>
        <location filename="../widgets/campaign/campaign_docks.cpp" line="+93"/>
        <source>No campaign open (Campaign → New Campaign or Open Workspace).</source>
        <translation>Keine Kampagne geöffnet (Kampagne → Neue Kampagne oder Arbeitsbereich öffnen).</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>idle</source>
        <translation>bereit</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Replay speed:</source>
        <translation>Wiedergabetempo:</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>fastest</source>
        <translation>maximal</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 events/s</source>
        <translation>%1 Ereignisse/s</translation>
    </message>
    <message>
        <location line="+14"/>
        <location line="+123"/>
        <source>Campaign</source>
        <translation>Kampagne</translation>
    </message>
    <message>
        <location line="-114"/>
        <source>No episode lineage: %1</source>
        <translation>Kein Episoden-Verlauf: %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Traces</source>
        <translation>Aufzeichnungen</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Learning Curves</source>
        <translation>Lernkurven</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Add Workspace…</source>
        <translation>Arbeitsbereich hinzufügen…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Compare</source>
        <translation>Vergleichen</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Curves</source>
        <translation>Kurven</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens and cost</source>
        <translation>Token und Kosten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Per-task success</source>
        <translation>Erfolg je Aufgabe</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Drill-down</source>
        <translation>Detailansicht</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Campaign workspace to compare</source>
        <translation>Zu vergleichender Kampagnen-Arbeitsbereich</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Run Comparison</source>
        <translation>Kampagnenvergleich</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Help</source>
        <translation>Hilfe</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Campaign</source>
        <translation>&amp;Kampagne</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;New Campaign…</source>
        <translation>&amp;Neue Kampagne…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Shift+N</source>
        <translation>Ctrl+Shift+N</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Open Workspace…</source>
        <translation>Arbeitsbereich ö&amp;ffnen…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open campaign workspace</source>
        <translation>Kampagnen-Arbeitsbereich öffnen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Ctrl+Shift+O</source>
        <translation>Ctrl+Shift+O</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Co&amp;ntinue Workspace…</source>
        <translation>Arbeitsbereich &amp;fortsetzen…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Continue an unfinished campaign</source>
        <translation>Eine unvollendete Kampagne fortsetzen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Pause</source>
        <translation>&amp;Anhalten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Shift+P</source>
        <translation>Ctrl+Shift+P</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Resume</source>
        <translation>&amp;Weiter</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Shift+R</source>
        <translation>Ctrl+Shift+R</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Cancel Campaign</source>
        <translation>Kampagne a&amp;bbrechen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Demo Mode…</source>
        <translation>&amp;Demomodus…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Replay a recorded campaign</source>
        <translation>Eine aufgezeichnete Kampagne wiedergeben</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Presentation &amp;Layout</source>
        <translation>Präsentations&amp;layout</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>F11</source>
        <translation>F11</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Co&amp;mpare Workspaces…</source>
        <translation>Arbeitsbereiche &amp;vergleichen…</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Workspace %1</source>
        <translation>Arbeitsbereich %1</translation>
    </message>
    <message>
        <location line="+112"/>
        <source>%1 (%2) — %3</source>
        <translation>%1 (%2) — %3</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>campaign</source>
        <translation>Kampagne</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>episode %1: round %2 of %3</source>
        <translation>Episode %1: Runde %2 von %3</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>iteration %1: %2 of %3 samples</source>
        <translation>Iteration %1: %2 von %3 Stichproben</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 — %2/%3 tasks solved — %4 tokens — $%5 — ETA %6 — %7 events</source>
        <translation>%1 — %2/%3 Aufgaben gelöst — %4 Token — $%5 — Restzeit %6 — %7 Ereignisse</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>finished (%1)</source>
        <translation>beendet (%1)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>paused: fix the cause, then Resume</source>
        <translation>angehalten: Ursache beheben, dann Fortsetzen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;The campaign paused itself.&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Die Kampagne hat sich selbst angehalten.&lt;/b&gt; %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Campaign %1</source>
        <translation>Kampagne %1</translation>
    </message>
</context>
<context>
    <name>sf::widgets::CampaignWorker</name>
    <message>
        <location filename="../widgets/campaign/campaign_worker.cpp" line="+90"/>
        <source>campaign.json: %1</source>
        <translation>campaign.json: %1</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>events.jsonl: %1</source>
        <translation>events.jsonl: %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <location line="+268"/>
        <source>%1 — fix it, then Resume</source>
        <translation>%1 — beheben, dann Fortsetzen</translation>
    </message>
    <message>
        <location line="-243"/>
        <source>Invalid configuration: %1</source>
        <translation>Ungültige Konfiguration: %1</translation>
    </message>
    <message>
        <location line="+292"/>
        <source>key moment</source>
        <translation>Schlüsselmoment</translation>
    </message>
</context>
<context>
    <name>sf::widgets::ComparisonSummaryModel</name>
    <message>
        <location filename="../widgets/campaign/comparison_model.cpp" line="+34"/>
        <source>error: %1</source>
        <translation>Fehler: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>finished (%1)</source>
        <translation>beendet (%1)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>unfinished</source>
        <translation>unvollendet</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Campaign</source>
        <translation>Kampagne</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mode</source>
        <translation>Modus</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Solved</source>
        <translation>Gelöst</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pass@1 / ER</source>
        <translation>pass@1 / ER</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pass@n / solved</source>
        <translation>pass@n / gelöst</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens</source>
        <translation>Token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cost</source>
        <translation>Kosten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
</context>
<context>
    <name>sf::widgets::ComparisonTaskModel</name>
    <message>
        <location line="+45"/>
        <source>Best speedup of a passing program: %1×</source>
        <translation>Beste Beschleunigung eines bestandenen Programms: %1×</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
</context>
<context>
    <name>sf::widgets::EngineWorker</name>
    <message>
        <location filename="../widgets/engine/engine_worker.cpp" line="+55"/>
        <source>Chip profile %1: %2</source>
        <translation>Chip-Profil %1: %2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The cost model could not time the program.</source>
        <translation>Das Kostenmodell konnte das Programm nicht zeitlich bewerten.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The cost model could not time the program: %1 %2</source>
        <translation>Das Kostenmodell konnte das Programm nicht zeitlich bewerten: %1 %2</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>checking</source>
        <translation>wird geprüft</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+18"/>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>generating inputs and reference</source>
        <translation>Eingaben und Referenz werden erzeugt</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>simulating</source>
        <translation>wird simuliert</translation>
    </message>
    <message>
        <location line="+17"/>
        <location line="+69"/>
        <source>done</source>
        <translation>fertig</translation>
    </message>
    <message>
        <location line="-45"/>
        <source>The document does not load (%1).</source>
        <translation>Das Dokument lässt sich nicht laden (%1).</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>input set %1 of %2</source>
        <translation>Eingabesatz %1 von %2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>simulating and comparing</source>
        <translation>wird simuliert und verglichen</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>estimating cost</source>
        <translation>Kosten werden geschätzt</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The program does not verify: stage %1, %2.</source>
        <translation>Das Programm besteht die Verifikation nicht: Stufe %1, %2.</translation>
    </message>
</context>
<context>
    <name>sf::widgets::EpisodeLineageView</name>
    <message>
        <location filename="../widgets/campaign/episode_lineage_view.cpp" line="+26"/>
        <source>no verdict (interrupted)</source>
        <translation>kein Befund (unterbrochen)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>fail: %1 %2</source>
        <translation>nicht bestanden: %1 %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pass</source>
        <translation>bestanden</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> · %1 cycles</source>
        <translation> · %1 Takte</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>J / K step · C canonical form · N / P change · ? keys · Esc close</source>
        <translation>J / K Schritt · C kanonische Form · N / P Änderung · ? Tasten · Esc schließen</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Episode %1 lineage — %2</source>
        <translation>Verlauf von Episode %1 — %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>solved at round %1</source>
        <translation>gelöst in Runde %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not solved</source>
        <translation>nicht gelöst</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Episode %1 of %2: %3 rounds, %4</source>
        <translation>Episode %1 von %2: %3 Runden, %4</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Round %1 → %2 → %3 → adopted %4 (+%5 −%6)</source>
        <translation>Runde %1 → %2 → %3 → übernommen %4 (+%5 −%6)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no program</source>
        <translation>kein Programm</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>program</source>
        <translation>Programm</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The episode has no round yet.</source>
        <translation>Die Episode hat noch keine Runde.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Round %1: %2</source>
        <translation>Runde %1: %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Retrieved: %1 · adopted: %2</source>
        <translation>Abgerufen: %1 · übernommen: %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> · rules used: %1</source>
        <translation> · verwendete Regeln: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Diagnostics: %1</source>
        <translation>Diagnosen: %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>(start)</source>
        <translation>(Anfang)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>previous program</source>
        <translation>vorheriges Programm</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>round %1</source>
        <translation>Runde %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>J / K — next / previous round
C — canonical form on / off in the diff
N / P — next / previous change in the diff
Esc — close
? / F1 — this cheat sheet
Opened with Ctrl+L in the trace pane, L / Ctrl+L in the audit pane</source>
        <translation>J / K — nächste / vorherige Runde
C — kanonische Form im Diff ein / aus
N / P — nächste / vorherige Änderung im Diff
Esc — schließen
? / F1 — diese Übersicht
Geöffnet mit Ctrl+L im Aufzeichnungsbereich, L / Ctrl+L im Audit-Bereich</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Episode lineage keyboard shortcuts</source>
        <translation>Tastenkürzel des Episoden-Verlaufs</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>No campaign workspace is open</source>
        <translation>Kein Kampagnen-Arbeitsbereich ist geöffnet</translation>
    </message>
</context>
<context>
    <name>sf::widgets::GoldenPromotion</name>
    <message>
        <location filename="../widgets/editor/golden_promote.cpp" line="+41"/>
        <source>Not promoted: no golden set file (Preferences → Agent)</source>
        <translation>Nicht aufgenommen: keine Datei für die goldene Menge (Einstellungen → Agent)</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Not promoted: %1</source>
        <translation>Nicht aufgenommen: %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>promoted %1 to %2 as %3</source>
        <translation>%1 nach %2 als %3 befördert</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 already in %2 as %3</source>
        <translation>%1 ist bereits in %2 als %3</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Not promoted: task &apos;%1&apos; is not in the benchmark catalogue</source>
        <translation>Nicht aufgenommen: Aufgabe &apos;%1&apos; ist nicht im Benchmark-Katalog</translation>
    </message>
</context>
<context>
    <name>sf::widgets::GraphView</name>
    <message>
        <location filename="../widgets/inspect/graph_view.cpp" line="+131"/>
        <source>Dataflow graph</source>
        <translation>Datenflussgraph</translation>
    </message>
    <message numerus="yes">
        <location line="+57"/>
        <source> · %n token(s)</source>
        <translation>
            <numerusform> · %n Token</numerusform>
            <numerusform> · %n Token</numerusform>
        </translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1% busy</source>
        <translation>%1 % ausgelastet</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Affinity violation: every stream must be used exactly once</source>
        <translation>Affinitätsverletzung: Jeder Stream muss genau einmal verwendet werden</translation>
    </message>
</context>
<context>
    <name>sf::widgets::IssuesModel</name>
    <message>
        <location filename="../widgets/editor/issues_model.cpp" line="+42"/>
        <source>error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>warning</source>
        <translation>Warnung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>note</source>
        <translation>Hinweis</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Severity</source>
        <translation>Schweregrad</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Code</source>
        <translation>Code</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Line:Col</source>
        <translation>Zeile:Spalte</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
</context>
<context>
    <name>sf::widgets::LearningCurves</name>
    <message>
        <location filename="../widgets/campaign/learning_curves.cpp" line="+37"/>
        <source>per iteration</source>
        <translation>je Iteration</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>per cumulative tokens</source>
        <translation>je kumulierte Token</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>pass@1 and pass@n</source>
        <translation>pass@1 und pass@n</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+339"/>
        <location line="+8"/>
        <source>pass@1</source>
        <translation>pass@1</translation>
    </message>
    <message>
        <location line="-346"/>
        <location line="+347"/>
        <location line="+47"/>
        <source>pass@n</source>
        <translation>pass@n</translation>
    </message>
    <message>
        <location line="-392"/>
        <source>All tasks</source>
        <translation>Alle Aufgaben</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Speedups</source>
        <translation>Beschleunigungen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Fast_1.0, Fast_1.5 and the median speedup, when the campaign&apos;s log has them</source>
        <translation>Fast_1.0, Fast_1.5 und die mittlere Beschleunigung (Median), sofern das Protokoll der Kampagne sie enthält</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open sweep…</source>
        <translation>Sweep öffnen…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A folder written by &apos;campaign sweep&apos;: each variant&apos;s mean over its seeds with a min–max band</source>
        <translation>Ein von „campaign sweep“ geschriebener Ordner: der Mittelwert jeder Variante über ihre Seeds mit einem Min–Max-Band</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>PNG…</source>
        <translation>PNG…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SVG…</source>
        <translation>SVG…</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Export:</source>
        <translation>Exportieren:</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Open a sweep folder</source>
        <translation>Sweep-Ordner öffnen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open sweep</source>
        <translation>Sweep öffnen</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+5"/>
        <source>Export learning curves</source>
        <translation>Lernkurven exportieren</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>PNG images (*.png)</source>
        <translation>PNG-Bilder (*.png)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>SVG images (*.svg)</source>
        <translation>SVG-Bilder (*.svg)</translation>
    </message>
    <message>
        <location line="+124"/>
        <source>campaign</source>
        <translation>Kampagne</translation>
    </message>
    <message>
        <location line="+77"/>
        <source>%1: no cell of the sweep has a curve yet</source>
        <translation>%1: noch keine Zelle des Sweeps hat eine Kurve</translation>
    </message>
    <message numerus="yes">
        <location line="+78"/>
        <source>mean %1 (%n seed(s))</source>
        <translation>
            <numerusform>Mittelwert %1 (%n Seed)</numerusform>
            <numerusform>Mittelwert %1 (%n Seeds)</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+8"/>
        <source>ER</source>
        <translation>ER</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+47"/>
        <source>solved</source>
        <translation>gelöst</translation>
    </message>
    <message>
        <location line="-41"/>
        <location line="+29"/>
        <source>median speedup</source>
        <translation>Median der Beschleunigung</translation>
    </message>
    <message>
        <location line="-9"/>
        <source>cumulative tokens</source>
        <translation>kumulierte Token</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>episode</source>
        <translation>Episode</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>iteration</source>
        <translation>Iteration</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>fraction of tasks</source>
        <translation>Anteil der Aufgaben</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>fraction of %1 tasks</source>
        <translation>Anteil von %1 Aufgaben</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>median speedup (×)</source>
        <translation>Median der Beschleunigung (×)</translation>
    </message>
    <message numerus="yes">
        <location line="+20"/>
        <source>min–max over %n seed(s)</source>
        <translation>
            <numerusform>Min–Max über %n Seed</numerusform>
            <numerusform>Min–Max über %n Seeds</numerusform>
        </translation>
    </message>
    <message>
        <location line="+13"/>
        <source>key moments</source>
        <translation>Schlüsselmomente</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Sweep: mean over seeds, band = min–max</source>
        <translation>Sweep: Mittelwert über die Seeds, Band = Min–Max</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Execution rate over episodes</source>
        <translation>Ausführungsrate über die Episoden</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Learning curves</source>
        <translation>Lernkurven</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>StepForge learning curves</source>
        <translation>StepForge-Lernkurven</translation>
    </message>
</context>
<context>
    <name>sf::widgets::MainWindow</name>
    <message>
        <location filename="../widgets/main_window.cpp" line="+77"/>
        <source>%1 cancelled</source>
        <translation>%1 abgebrochen</translation>
    </message>
    <message>
        <location line="+18"/>
        <location line="+225"/>
        <source>untitled %1</source>
        <translation>unbenannt %1</translation>
    </message>
    <message>
        <location line="-194"/>
        <source>Issues</source>
        <translation>Probleme</translation>
    </message>
    <message>
        <location line="+7"/>
        <location line="+193"/>
        <source>Not verified yet (Run → Verify).</source>
        <translation>Noch nicht verifiziert (Ausführen → Verifizieren).</translation>
    </message>
    <message>
        <location line="-184"/>
        <source>Verification</source>
        <translation>Verifikation</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Dataflow Graph</source>
        <translation>Datenflussgraph</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Stream Inspector</source>
        <translation>Stream-Inspektor</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Performance</source>
        <translation>Leistung</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Tasks</source>
        <translation>Aufgaben</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;New from Task…</source>
        <translation>&amp;Neu aus Aufgabe…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Open…</source>
        <translation>Ö&amp;ffnen…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save &amp;As…</source>
        <translation>Speichern &amp;unter…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederherstellen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Insert &amp;Copies</source>
        <translation>&amp;Kopien einfügen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Shift+C</source>
        <translation>Ctrl+Shift+C</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fix multiple uses of a stream with Copy chains (the guardian&apos;s rewrite)</source>
        <translation>Mehrfache Verwendung eines Streams mit Copy-Ketten beheben (die Umschreibung des Wächters)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Format Program</source>
        <translation>Programm &amp;formatieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Shift+F</source>
        <translation>Ctrl+Shift+F</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Preferences…</source>
        <translation>&amp;Einstellungen…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Run</source>
        <translation>&amp;Ausführen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Check</source>
        <translation>&amp;Prüfen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>F5</source>
        <translation>F5</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Simulate</source>
        <translation>&amp;Simulieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>F6</source>
        <translation>F6</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Verify</source>
        <translation>&amp;Verifizieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>F7</source>
        <translation>F7</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>C&amp;ancel</source>
        <translation>A&amp;bbrechen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+.</source>
        <translation>Ctrl+.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;View</source>
        <translation>A&amp;nsicht</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>STeP &amp;Manual</source>
        <translation>STeP-&amp;Handbuch</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;About StepForge</source>
        <translation>&amp;Über StepForge</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>About StepForge</source>
        <translation>Über StepForge</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>StepForge %1
A workbench where LLM agents learn to write STeP from their own verified work.</source>
        <translation>StepForge %1
Eine Werkbank, in der LLM-Agenten aus ihrer eigenen verifizierten Arbeit lernen, STeP zu schreiben.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Program</source>
        <translation>Programm</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>Unsaved changes</source>
        <translation>Ungespeicherte Änderungen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>The document has unsaved changes. Save them?</source>
        <translation>Das Dokument hat ungespeicherte Änderungen. Speichern?</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>untitled</source>
        <translation>unbenannt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1%2 — StepForge</source>
        <translation>%1%2 — StepForge</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Cannot open %1: %2</source>
        <translation>%1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Opened %1</source>
        <translation>%1 geöffnet</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>No bundled task %1</source>
        <translation>Keine mitgelieferte Aufgabe %1</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Cannot save %1: %2</source>
        <translation>%1 kann nicht gespeichert werden: %2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Open task or solution</source>
        <translation>Aufgabe oder Lösung öffnen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>STeP documents (*.yaml *.yml);;All files (*)</source>
        <translation>STeP-Dokumente (*.yaml *.yml);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Save document</source>
        <translation>Dokument speichern</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>STeP documents (*.yaml *.yml)</source>
        <translation>STeP-Dokumente (*.yaml *.yml)</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>New from Task</source>
        <translation>Neu aus Aufgabe</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Bundled task:</source>
        <translation>Mitgelieferte Aufgabe:</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Simulating…</source>
        <translation>Simuliere…</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+1"/>
        <source>Verifying…</source>
        <translation>Verifiziere…</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>no task</source>
        <translation>keine Aufgabe</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>task %1</source>
        <translation>Aufgabe %1</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>✔ checks pass, %n warning(s)</source>
        <translation>
            <numerusform>✔ Prüfungen bestanden, %n Warnung</numerusform>
            <numerusform>✔ Prüfungen bestanden, %n Warnungen</numerusform>
        </translation>
    </message>
    <message>
        <location line="+0"/>
        <source>✔ checks pass</source>
        <translation>✔ Prüfungen bestanden</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>✘ %n error(s)</source>
        <translation>
            <numerusform>✘ %n Fehler</numerusform>
            <numerusform>✘ %n Fehler</numerusform>
        </translation>
    </message>
    <message>
        <location line="+21"/>
        <source>PASS — %1: %2 input sets, max abs error %3, max rel error %4, %5 statements (%6 s)</source>
        <translation>BESTANDEN — %1: %2 Eingabesätze, max. absoluter Fehler %3, max. relativer Fehler %4, %5 Anweisungen (%6 s)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>FAIL — %1: stage %2, %3</source>
        <translation>FEHLGESCHLAGEN — %1: Stufe %2, %3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Verification passed</source>
        <translation>Verifikation bestanden</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Verification failed (%1)</source>
        <translation>Verifikation fehlgeschlagen (%1)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 cycles</source>
        <translation>%1 Takte</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>speedup %1</source>
        <translation>Beschleunigung %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not feasible</source>
        <translation>nicht umsetzbar</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cost model, chip %1 (Performance pane)</source>
        <translation>Kostenmodell, Chip %1 (Bereich Leistung)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>no cost report</source>
        <translation>kein Kostenbericht</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Simulated %1 (%2, seed %3) in %4 ms</source>
        <translation>%1 simuliert (%2, Seed %3) in %4 ms</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Simulation failed</source>
        <translation>Simulation fehlgeschlagen</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The program cannot be rewritten: fix the errors first</source>
        <translation>Das Programm kann nicht umgeschrieben werden: Beheben Sie zuerst die Fehler</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The document changed during the rewrite; try again</source>
        <translation>Das Dokument hat sich während der Umschreibung geändert; bitte erneut versuchen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Formatted</source>
        <translation>Formatiert</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Copies inserted</source>
        <translation>Kopien eingefügt</translation>
    </message>
</context>
<context>
    <name>sf::widgets::ManualBrowser</name>
    <message>
        <location filename="../widgets/editor/manual_browser.cpp" line="+14"/>
        <source>STeP Manual</source>
        <translation>STeP-Handbuch</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>(cannot read %1)</source>
        <translation>(%1 kann nicht gelesen werden)</translation>
    </message>
</context>
<context>
    <name>sf::widgets::MemoryInspector</name>
    <message>
        <location filename="../widgets/audit/memory_inspector.cpp" line="+38"/>
        <source>All states</source>
        <translation>Alle Zustände</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cold</source>
        <translation>Kalt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Validated</source>
        <translation>Validiert</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hot</source>
        <translation>Heiß</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Resident tokens of the hot rules / the hot budget B</source>
        <translation>Residente Token der heißen Regeln / das heiße Budget B</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Import…</source>
        <translation>Importieren…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export…</source>
        <translation>Exportieren…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Hot budget:</source>
        <translation>Heißes Budget:</translation>
    </message>
    <message>
        <location line="+21"/>
        <location line="+221"/>
        <source>Utility over episodes</source>
        <translation>Nutzen über die Episoden</translation>
    </message>
    <message>
        <location line="-219"/>
        <source>episode</source>
        <translation>Episode</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>utility U</source>
        <translation>Nutzen U</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>The consolidation guard: a consolidation step that would have shrunk the resident context to less than half while dropping recently adopted items is undone</source>
        <translation>Der Konsolidierungsschutz: Ein Konsolidierungsschritt, der den residenten Kontext auf weniger als die Hälfte verkleinert und dabei kürzlich übernommene Einträge verworfen hätte, wird rückgängig gemacht</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>Cannot load the memory of %1: %2</source>
        <translation>Das Gedächtnis von %1 kann nicht geladen werden: %2</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n memory item(s)</source>
        <translation>
            <numerusform>%n Gedächtniseintrag</numerusform>
            <numerusform>%n Gedächtniseinträge</numerusform>
        </translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Import failed: %1</source>
        <translation>Import fehlgeschlagen: %1</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>Imported %n item(s) from %1</source>
        <translation>
            <numerusform>%n Eintrag aus %1 importiert</numerusform>
            <numerusform>%n Einträge aus %1 importiert</numerusform>
        </translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Export failed: %1</source>
        <translation>Export fehlgeschlagen: %1</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>Exported %n item(s) to %1</source>
        <translation>
            <numerusform>%n Eintrag nach %1 exportiert</numerusform>
            <numerusform>%n Einträge nach %1 exportiert</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+6"/>
        <source>Import memory</source>
        <translation>Gedächtnis importieren</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>StepForge memory (*.json);;All files (*)</source>
        <translation>StepForge-Gedächtnis (*.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The file %1 is not a valid StepForge memory file and was not imported.

%2</source>
        <translation>Die Datei %1 ist keine gültige StepForge-Gedächtnisdatei und wurde nicht importiert.

%2</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+5"/>
        <source>Export memory</source>
        <translation>Gedächtnis exportieren</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>StepForge memory (*.json)</source>
        <translation>StepForge-Gedächtnis (*.json)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Cannot export the memory to %1.

%2</source>
        <translation>Das Gedächtnis kann nicht nach %1 exportiert werden.

%2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 / %2 tokens (%3%)</source>
        <translation>%1 / %2 Token (%3 %)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cold %1 · validated %2 · hot %3</source>
        <translation>kalt %1 · validiert %2 · heiß %3</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Consolidation rolled back after episode %1: the resident set was kept (the step would have shrunk the resident context from %2 to %3 tokens and dropped recently adopted %4).</source>
        <translation>Konsolidierung nach Episode %1 zurückgenommen: Die residente Menge wurde beibehalten (der Schritt hätte den residenten Kontext von %2 auf %3 Token verkleinert und kürzlich übernommene %4 verworfen).</translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>%n rollback(s) in this campaign.</source>
        <translation>
            <numerusform>%n Rücknahme in dieser Kampagne.</numerusform>
            <numerusform>%n Rücknahmen in dieser Kampagne.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+58"/>
        <source>Utility of %1 over episodes</source>
        <translation>Nutzen von %1 über die Episoden</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;p&gt;&lt;i&gt;Select a memory item.&lt;/i&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;i&gt;Wählen Sie einen Gedächtniseintrag.&lt;/i&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Source: task %1, episode %2</source>
        <translation>Quelle: Aufgabe %1, Episode %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Utility %1 after %2 update(s); retrieved in %3 episode(s), adopted in %4, by %5 operator(s); access %6</source>
        <translation>Nutzen %1 nach %2 Aktualisierung(en); in %3 Episode(n) abgerufen, in %4 übernommen, von %5 Operator(en); Zugriff %6</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Rule</source>
        <translation>Regel</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Evidence</source>
        <translation>Beleg</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Code example</source>
        <translation>Codebeispiel</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pattern</source>
        <translation>Muster</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Resident form (%1 tokens)</source>
        <translation>Residente Form (%1 Token)</translation>
    </message>
</context>
<context>
    <name>sf::widgets::MemoryInspectorModel</name>
    <message>
        <location filename="../widgets/audit/memory_inspector_model.cpp" line="+356"/>
        <source>resident tokens (abstracted form); %1 in the retrieval view</source>
        <translation>residente Token (abstrahierte Form); %1 in der Abrufansicht</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Item</source>
        <translation>Eintrag</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Utility</source>
        <translation>Nutzen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Retrievals</source>
        <translation>Abrufe</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Adoptions</source>
        <translation>Übernahmen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Updates</source>
        <translation>Aktualisierungen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Operators</source>
        <translation>Operatoren</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Access</source>
        <translation>Zugriff</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tokens</source>
        <translation>Token</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Rule</source>
        <translation>Regel</translation>
    </message>
</context>
<context>
    <name>sf::widgets::OutputCompareModel</name>
    <message>
        <location filename="../widgets/inspect/stream_inspector_models.cpp" line="+301"/>
        <source>ok</source>
        <translation>ok</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>mismatch</source>
        <translation>Abweichung</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>reference NaN</source>
        <translation>Referenz NaN</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Index</source>
        <translation>Index</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Position</source>
        <translation>Position</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Program</source>
        <translation>Programm</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reference</source>
        <translation>Referenz</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>|Error|</source>
        <translation>|Fehler|</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
</context>
<context>
    <name>sf::widgets::OutputListModel</name>
    <message>
        <location line="-134"/>
        <source>size differs</source>
        <translation>Größe abweichend</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>reference NaN</source>
        <translation>Referenz NaN</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pass</source>
        <translation>bestanden</translation>
    </message>
    <message numerus="yes">
        <location line="+0"/>
        <source>%n mismatch(es)</source>
        <translation>
            <numerusform>%n Abweichung</numerusform>
            <numerusform>%n Abweichungen</numerusform>
        </translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Output</source>
        <translation>Ausgabe</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Max abs error</source>
        <translation>Max. abs. Fehler</translation>
    </message>
</context>
<context>
    <name>sf::widgets::PerfTimeline</name>
    <message>
        <location filename="../widgets/editor/performance_pane.cpp" line="+98"/>
        <source>Unit timeline</source>
        <translation>Zeitleiste der Einheiten</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>No timeline</source>
        <translation>Keine Zeitleiste</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>cycles</source>
        <translation>Takte</translation>
    </message>
</context>
<context>
    <name>sf::widgets::PerfUnitsModel</name>
    <message>
        <location line="-117"/>
        <source>Bottleneck: the unit with the most busy cycles</source>
        <translation>Engpass: die Einheit mit den meisten belegten Takten</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Line</source>
        <translation>Zeile</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Primitive</source>
        <translation>Primitiv</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stream</source>
        <translation>Strom</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Busy</source>
        <translation>Belegt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stall in</source>
        <translation>Wartet auf Eingabe</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Blocked out</source>
        <translation>Ausgabe blockiert</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens in</source>
        <translation>Token ein</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens out</source>
        <translation>Token aus</translation>
    </message>
</context>
<context>
    <name>sf::widgets::PerformancePane</name>
    <message>
        <location line="+163"/>
        <source>No report yet: verify the program (Run → Verify) to see its cost.</source>
        <translation>Noch kein Bericht: Programm verifizieren (Ausführen → Verifizieren), um seine Kosten zu sehen.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The program changed since this report; verify again (F7) to update it.</source>
        <translation>Das Programm hat sich seit diesem Bericht geändert; erneut verifizieren (F7), um ihn zu aktualisieren.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No cost report.</source>
        <translation>Kein Kostenbericht.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>line %1: </source>
        <translation>Zeile %1: </translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Cycles</source>
        <translation>Takte</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 (%2 µs at %3 GHz, chip %4)</source>
        <translation>%1 (%2 µs bei %3 GHz, Chip %4)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 (baseline %2 cycles)</source>
        <translation>%1 (Basislinie %2 Takte)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>unknown: no baseline (%1)</source>
        <translation>unbekannt: keine Basislinie (%1)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>none: the program is not feasible (baseline %1 cycles)</source>
        <translation>keine: das Programm ist nicht umsetzbar (Basislinie %1 Takte)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Speedup</source>
        <translation>Beschleunigung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Off-chip bytes</source>
        <translation>Off-Chip-Bytes</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 read, %2 written</source>
        <translation>%1 gelesen, %2 geschrieben</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>(%n deepened channel(s), %1 bytes buffered)</source>
        <translation>
            <numerusform>(%n vertiefter Kanal, %1 Bytes gepuffert)</numerusform>
            <numerusform>(%n vertiefte Kanäle, %1 Bytes gepuffert)</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>On-chip bytes</source>
        <translation>On-Chip-Bytes</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>FLOPs</source>
        <translation>FLOPs</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 (allocated compute %2 FLOPs/cycle)</source>
        <translation>%1 (zugewiesene Rechenleistung %2 FLOPs/Takt)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Utilisation</source>
        <translation>Auslastung</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>feasible</source>
        <translation>umsetzbar</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>not feasible</source>
        <translation>nicht umsetzbar</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Feasibility</source>
        <translation>Umsetzbarkeit</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Bottleneck</source>
        <translation>Engpass</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 %2 (line %3), %4 busy cycles</source>
        <translation>%1 %2 (Zeile %3), %4 belegte Takte</translation>
    </message>
</context>
<context>
    <name>sf::widgets::ProgramDiffView</name>
    <message>
        <location filename="../widgets/editor/program_diff_view.cpp" line="+48"/>
        <source>Canonical form</source>
        <translation>Kanonische Form</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Compare both programs in their canonical form (names renamed in definition order, keyword arguments ordered), so renames and layout do not show</source>
        <translation>Beide Programme in ihrer kanonischen Form vergleichen (Namen in Definitionsreihenfolge umbenannt, Schlüsselwortargumente geordnet), sodass Umbenennungen und Layout nicht auffallen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Previous change</source>
        <translation>Vorherige Änderung</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Next change</source>
        <translation>Nächste Änderung</translation>
    </message>
    <message>
        <location line="+93"/>
        <source>Before</source>
        <translation>Vorher</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After</source>
        <translation>Nachher</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>identical</source>
        <translation>identisch</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>1 change</source>
        <translation>1 Änderung</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 changes</source>
        <translation>%1 Änderungen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source> (canonical form)</source>
        <translation> (kanonische Form)</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>before shown as written: %1</source>
        <translation>Vorher wie geschrieben gezeigt: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>after shown as written: %1</source>
        <translation>Nachher wie geschrieben gezeigt: %1</translation>
    </message>
</context>
<context>
    <name>sf::widgets::ReplayControls</name>
    <message>
        <location filename="../widgets/campaign/replay_controls.cpp" line="+35"/>
        <source>Key moments of the campaign: activate one to jump to it</source>
        <translation>Schlüsselmomente der Kampagne: einen aktivieren, um dorthin zu springen</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Previous iteration / episode (←)</source>
        <translation>Vorherige Iteration / Episode (←)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Next iteration / episode (→)</source>
        <translation>Nächste Iteration / Episode (→)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Replay position (events applied)</source>
        <translation>Wiedergabeposition (angewandte Ereignisse)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Pause at key moments</source>
        <translation>Bei Schlüsselmomenten anhalten</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Previous Episode</source>
        <translation>Vorherige Episode</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Next Episode</source>
        <translation>Nächste Episode</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>%1 — event %2</source>
        <translation>%1 — Ereignis %2</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>event %1 of %2 · %3</source>
        <translation>Ereignis %1 von %2 · %3</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>part %1 of %2</source>
        <translation>Teil %1 von %2</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>start</source>
        <translation>Anfang</translation>
    </message>
</context>
<context>
    <name>sf::widgets::RunComparisonView</name>
    <message>
        <location filename="../widgets/campaign/run_comparison_view.cpp" line="+108"/>
        <source>(no agent calls logged for this sample)</source>
        <translation>(für diese Stichprobe wurden keine Agentenaufrufe protokolliert)</translation>
    </message>
    <message>
        <location line="+193"/>
        <source>The number each cell shows and colours (M / Shift+M)</source>
        <translation>Die Zahl, die jede Zelle zeigt und einfärbt (M / Shift+M)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Only tasks that differ</source>
        <translation>Nur Aufgaben mit Unterschieden</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hide the tasks on which every run agrees: attempted, solved and pass@1 (F)</source>
        <translation>Aufgaben ausblenden, bei denen alle Läufe übereinstimmen: versucht, gelöst und pass@1 (F)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Deltas against this run (B on a cell)</source>
        <translation>Differenzen gegenüber diesem Lauf (B auf einer Zelle)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Metric</source>
        <translation>Kennzahl</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Baseline</source>
        <translation>Basislinie</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Enter open · Space mark · D diff · ? keys</source>
        <translation>Enter öffnen · Leertaste markieren · D Diff · ? Tasten</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Enter on a cell opens that run&apos;s samples of the task</source>
        <translation>Enter auf einer Zelle öffnet die Stichproben dieses Laufs für die Aufgabe</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Iteration</source>
        <translation>Iteration</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Temp.</source>
        <translation>Temp.</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Sample</source>
        <translation>Stichprobe</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Verdict</source>
        <translation>Befund</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cycles</source>
        <translation>Takte</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Speedup</source>
        <translation>Beschleunigung</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Tokens</source>
        <translation>Token</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>Samples</source>
        <translation>Stichproben</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Program diff</source>
        <translation>Programm-Diff</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Promote to &amp;Golden</source>
        <translation>Zu &amp;Gold befördern</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verify the cell&apos;s program and add it to the golden set (G)</source>
        <translation>Das Programm der Zelle verifizieren und zur goldenen Menge hinzufügen (G)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Promote Sample to &amp;Golden</source>
        <translation>Stichprobe zu &amp;Gold befördern</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verify the sample&apos;s program and add it to the golden set (G)</source>
        <translation>Das Programm der Stichprobe verifizieren und zur goldenen Menge hinzufügen (G)</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Not in the grid: %1</source>
        <translation>Nicht im Raster: %1</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>(none)</source>
        <translation>(keine)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Choose a run&apos;s cell (not the task column)</source>
        <translation>Eine Zelle eines Laufs wählen (nicht die Aufgabenspalte)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 in %2: %3 samples</source>
        <translation>%1 in %2: %3 Stichproben</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>The run has no sample of this task.</source>
        <translation>Der Lauf hat keine Stichprobe dieser Aufgabe.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>(no program: %1)</source>
        <translation>(kein Programm: %1)</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Outputs: task &apos;%1&apos; is not in the bundled catalogue, no reference to compare with</source>
        <translation>Ausgaben: Aufgabe &apos;%1&apos; ist nicht im mitgelieferten Katalog, keine Referenz zum Vergleich</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1: all %2 values within tolerance; max abs error %3, max rel error %4</source>
        <translation>%1: alle %2 Werte innerhalb der Toleranz; max. abs. Fehler %3, max. rel. Fehler %4</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1: %2 of %3 values differ; max abs error %4, max rel error %5; first mismatch %6 [%7]</source>
        <translation>%1: %2 von %3 Werten weichen ab; max. abs. Fehler %4, max. rel. Fehler %5; erste Abweichung %6 [%7]</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No output compared: %1</source>
        <translation>Keine Ausgabe verglichen: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Outputs vs reference (verifies):</source>
        <translation>Ausgaben gegen Referenz (verifiziert):</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Outputs vs reference (does not verify):</source>
        <translation>Ausgaben gegen Referenz (verifiziert nicht):</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>A diff needs two different run cells</source>
        <translation>Ein Diff braucht zwei verschiedene Zellen von Läufen</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 · %2 · %3</source>
        <translation>%1 · %2 · %3</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>no program</source>
        <translation>kein Programm</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+1"/>
        <source>No program</source>
        <translation>Kein Programm</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Mark a cell with Space (or choose a baseline with B), then D on the other cell</source>
        <translation>Eine Zelle mit der Leertaste markieren (oder mit B eine Basislinie wählen), dann D auf der anderen Zelle</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Marked %1 in %2: D on another cell diffs them</source>
        <translation>%1 in %2 markiert: D auf einer anderen Zelle vergleicht sie</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Mark cleared</source>
        <translation>Markierung aufgehoben</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>Not promoted: choose a run&apos;s cell (not the task column)</source>
        <translation>Nicht aufgenommen: eine Zelle eines Laufs wählen (nicht die Aufgabenspalte)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Not promoted: no sample of %1 in %2 produced a program</source>
        <translation>Nicht aufgenommen: keine Stichprobe von %1 in %2 hat ein Programm erzeugt</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Not promoted: open a cell (Enter) and choose a sample</source>
        <translation>Nicht aufgenommen: eine Zelle öffnen (Enter) und eine Stichprobe wählen</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Enter — open the cell: that run&apos;s samples of the task (programs, verdicts, agent calls)
J / K — next / previous sample of the opened cell
Space — mark the current cell as the left side of a diff (again: clear)
D — diff: the marked cell (or two selected cells, or the baseline&apos;s cell) against the current cell
C — canonical form on / off in the program diff
N / P — next / previous change in the program diff
F — only tasks that differ on / off
B — the current cell&apos;s run becomes the baseline (again: no baseline)
M / Shift+M — next / previous metric
G — promote to golden: the current cell&apos;s program (in the sample list: the sample&apos;s program)
Esc — back to the grid
? / F1 — this cheat sheet</source>
        <translation>Enter — die Zelle öffnen: die Stichproben dieses Laufs für die Aufgabe (Programme, Befunde, Agentenaufrufe)
J / K — nächste / vorherige Stichprobe der geöffneten Zelle
Leertaste — die aktuelle Zelle als linke Seite eines Diffs markieren (nochmals: aufheben)
D — Diff: die markierte Zelle (oder zwei ausgewählte Zellen, oder die Zelle der Basislinie) gegen die aktuelle Zelle
C — kanonische Form im Programm-Diff ein / aus
N / P — nächste / vorherige Änderung im Programm-Diff
F — nur Aufgaben mit Unterschieden ein / aus
B — der Lauf der aktuellen Zelle wird zur Basislinie (nochmals: keine Basislinie)
M / Shift+M — nächste / vorherige Kennzahl
G — zu Gold befördern: das Programm der aktuellen Zelle (in der Stichprobenliste: das Programm der Stichprobe)
Esc — zurück zum Raster
? / F1 — diese Übersicht</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Run comparison keyboard shortcuts</source>
        <translation>Tastenkürzel des Laufvergleichs</translation>
    </message>
</context>
<context>
    <name>sf::widgets::RunGridModel</name>
    <message>
        <location line="-602"/>
        <location line="+181"/>
        <source>not sampled</source>
        <translation>keine Stichprobe</translation>
    </message>
    <message>
        <location line="-181"/>
        <source>solved</source>
        <translation>gelöst</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>unsolved</source>
        <translation>ungelöst</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of %2 samples pass</source>
        <translation>%1 von %2 Stichproben korrekt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pass@1 %1</source>
        <translation>pass@1 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>first pass at sample %1</source>
        <translation>erstmals korrekt bei Stichprobe %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 tokens, $%2</source>
        <translation>%1 Token, $%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>best %1× (%2 cycles)</source>
        <translation>beste %1× (%2 Takte)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>best %1 cycles</source>
        <translation>beste %1 Takte</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pass@1</source>
        <translation>pass@1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Samples to first pass</source>
        <translation>Stichproben bis zur ersten korrekten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens</source>
        <translation>Token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cost</source>
        <translation>Kosten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Best speedup</source>
        <translation>Beste Beschleunigung</translation>
    </message>
    <message>
        <location line="+164"/>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 (baseline)</source>
        <translation>%1 (Basislinie)</translation>
    </message>
</context>
<context>
    <name>sf::widgets::SettingsDialog</name>
    <message>
        <location filename="../widgets/settings_dialog.cpp" line="-100"/>
        <source>Preferences</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>System default (%1)</source>
        <translation>Systemstandard (%1)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The new language is applied the next time StepForge starts.</source>
        <translation>Die neue Sprache wird beim nächsten Start von StepForge übernommen.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Language:</source>
        <translation>&amp;Sprache:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The chip profile the cost model times verified programs on (Performance pane)</source>
        <translation>Das Chip-Profil, auf dem das Kostenmodell verifizierte Programme bewertet (Bereich Leistung)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Chip profile:</source>
        <translation>&amp;Chip-Profil:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Agent</source>
        <translation>Agent</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Built-in synthesizer (offline)</source>
        <translation>Eingebauter Synthesizer (offline)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>OpenAI-compatible endpoint</source>
        <translation>OpenAI-kompatibler Endpunkt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Anthropic</source>
        <translation>Anthropic</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>e.g. gpt-4o-mini, claude-sonnet-4-5, a local model&apos;s name</source>
        <translation>z. B. gpt-4o-mini, claude-sonnet-4-5, der Name eines lokalen Modells</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the kind&apos;s default</source>
        <translation>Standard der Art</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>NAME of the environment variable, e.g. OPENAI_API_KEY</source>
        <translation>NAME der Umgebungsvariable, z. B. OPENAI_API_KEY</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Only the variable&apos;s name is stored, never the key</source>
        <translation>Nur der Name der Variable wird gespeichert, nie der Schlüssel</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>none</source>
        <translation>keiner</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A campaign workspace whose memory (retrieval, resident rules) the agent uses</source>
        <translation>Ein Kampagnen-Arbeitsbereich, dessen Gedächtnis (Abruf, residente Regeln) der Agent nutzt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The session workspace every round is logged to (trace and audit panes)</source>
        <translation>Der Sitzungs-Arbeitsbereich, in den jede Runde protokolliert wird (Trace- und Audit-Bereich)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;session&gt;/golden.json</source>
        <translation>&lt;Sitzung&gt;/golden.json</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&amp;Backend:</source>
        <translation>&amp;Backend:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Model:</source>
        <translation>&amp;Modell:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Base &amp;URL:</source>
        <translation>Basis-&amp;URL:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>API key &amp;variable:</source>
        <translation>API-Schlüssel-&amp;Variable:</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the key itself, kept in the OS keyring (optional)</source>
        <translation>der Schlüssel selbst, im Schlüsselbund des Systems (optional)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Used when the environment does not set the variable; never written to a file</source>
        <translation>Verwendet, wenn die Umgebung die Variable nicht setzt; nie in eine Datei geschrieben</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Store in keyring</source>
        <translation>Im Schlüsselbund speichern</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>API &amp;key:</source>
        <translation>API-&amp;Schlüssel:</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>M&amp;emory workspace:</source>
        <translation>&amp;Gedächtnis-Arbeitsbereich:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Session workspace:</source>
        <translation>&amp;Sitzungs-Arbeitsbereich:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Golden set:</source>
        <translation>&amp;Goldene Menge:</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>name the API key variable first: the keyring keeps the key under that name</source>
        <translation>zuerst die Variable des API-Schlüssels benennen: der Schlüsselbund speichert den Schlüssel unter diesem Namen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>enter the key to store</source>
        <translation>den zu speichernden Schlüssel eingeben</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>the agent&apos;s backend needs a model</source>
        <translation>das Backend des Agenten braucht ein Modell</translation>
    </message>
</context>
<context>
    <name>sf::widgets::StepApis</name>
    <message>
        <location filename="../widgets/editor/step_apis.cpp" line="+92"/>
        <source>dims: %1</source>
        <translation>Dimensionen: %1</translation>
    </message>
</context>
<context>
    <name>sf::widgets::StepEditor</name>
    <message>
        <location filename="../widgets/editor/step_editor.cpp" line="+103"/>
        <source>Stream type</source>
        <translation>Stream-Typ</translation>
    </message>
</context>
<context>
    <name>sf::widgets::StepLexer</name>
    <message>
        <location filename="../widgets/editor/step_lexer.cpp" line="+43"/>
        <source>Default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Comment</source>
        <translation>Kommentar</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Document key</source>
        <translation>Dokumentschlüssel</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Primitive</source>
        <translation>Primitiv</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keyword</source>
        <translation>Schlüsselwort</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Task fn</source>
        <translation>Aufgabenfunktion</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stream</source>
        <translation>Stream</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Number</source>
        <translation>Zahl</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Punctuation</source>
        <translation>Satzzeichen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Size symbol</source>
        <translation>Größensymbol</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Primitive parameter</source>
        <translation>Primitiv-Parameter</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Text</source>
        <translation>Text</translation>
    </message>
</context>
<context>
    <name>sf::widgets::StreamInspector</name>
    <message>
        <location filename="../widgets/inspect/stream_inspector.cpp" line="+56"/>
        <source>Select a stream to see its tokens</source>
        <translation>Wählen Sie einen Stream, um seine Token zu sehen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Token sequence</source>
        <translation>Token-Folge</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Streams</source>
        <translation>Streams</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Show mismatches only</source>
        <translation>Nur Abweichungen anzeigen</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Outputs vs reference</source>
        <translation>Ausgaben gegen Referenz</translation>
    </message>
</context>
<context>
    <name>sf::widgets::StreamListModel</name>
    <message>
        <location filename="../widgets/inspect/stream_inspector_models.cpp" line="-151"/>
        <source>Stream</source>
        <translation>Stream</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Dims</source>
        <translation>Dimensionen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Elements</source>
        <translation>Elemente</translation>
    </message>
</context>
<context>
    <name>sf::widgets::TaskBrowser</name>
    <message>
        <location filename="../widgets/editor/task_browser.cpp" line="+51"/>
        <source>Filter tasks (id, title, tag)</source>
        <translation>Aufgaben filtern (ID, Titel, Tag)</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Tasks</source>
        <translation>Aufgaben</translation>
    </message>
</context>
<context>
    <name>sf::widgets::TaskBrowserModel</name>
    <message numerus="yes">
        <location filename="../widgets/editor/task_browser_model.cpp" line="+161"/>
        <source>%n task(s)</source>
        <translation>
            <numerusform>%n Aufgabe</numerusform>
            <numerusform>%n Aufgaben</numerusform>
        </translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1/%2</source>
        <translation>%1/%2</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Paper task: %1</source>
        <translation>Aufgabe aus dem Paper: %1</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>solved</source>
        <translation>gelöst</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>unsolved</source>
        <translation>ungelöst</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tags</source>
        <translation>Tags</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Success rate</source>
        <translation>Erfolgsquote</translation>
    </message>
</context>
<context>
    <name>sf::widgets::TokenTableModel</name>
    <message>
        <location filename="../widgets/inspect/stream_inspector_models.cpp" line="+88"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Position (i0, …)</source>
        <translation>Position (i0, …)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop</source>
        <translation>Stopp</translation>
    </message>
</context>
<context>
    <name>sf::widgets::TraceModel</name>
    <message>
        <location filename="../widgets/campaign/trace_model.cpp" line="+76"/>
        <source>error: %1</source>
        <translation>Fehler: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source> (cache)</source>
        <translation> (Cache)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Suspicious: a speedup above %1× should be checked by a human</source>
        <translation>Verdächtig: eine Beschleunigung über %1× sollte von einem Menschen geprüft werden</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Role</source>
        <translation>Rolle</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Iteration</source>
        <translation>Iteration</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sample</source>
        <translation>Stichprobe</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verdict</source>
        <translation>Befund</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cycles</source>
        <translation>Takte</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Speedup</source>
        <translation>Beschleunigung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens</source>
        <translation>Token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Latency (s)</source>
        <translation>Latenz (s)</translation>
    </message>
</context>
<context>
    <name>sf::widgets::TracePane</name>
    <message>
        <location filename="../widgets/campaign/trace_pane.cpp" line="+40"/>
        <source>All roles</source>
        <translation>Alle Rollen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>All verdicts</source>
        <translation>Alle Befunde</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pass</source>
        <translation>Bestanden</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fail</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pending</source>
        <translation>Ausstehend</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Task id</source>
        <translation>Aufgaben-ID</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Search…</source>
        <translation>Suchen…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>in responses</source>
        <translation>in Antworten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Also search the responses and programs (slower on large campaigns)</source>
        <translation>Auch Antworten und Programme durchsuchen (bei großen Kampagnen langsamer)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Follow</source>
        <translation>Folgen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Scroll to the newest call</source>
        <translation>Zum neuesten Aufruf scrollen</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Episode &amp;Lineage</source>
        <translation>Episoden-&amp;Verlauf</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+L</source>
        <translation>Ctrl+L</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Promote to &amp;Golden</source>
        <translation>Zu &amp;Gold befördern</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ctrl+G</source>
        <translation>Ctrl+G</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Verify the call&apos;s program and add it to the golden set (Ctrl+G)</source>
        <translation>Das Programm des Aufrufs verifizieren und zur goldenen Menge hinzufügen (Ctrl+G)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Response</source>
        <translation>Antwort</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Program</source>
        <translation>Programm</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Guardian diff</source>
        <translation>Änderungen des Wächters</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verdict</source>
        <translation>Befund</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Prompt</source>
        <translation>Prompt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reasoning</source>
        <translation>Begründung des Modells</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>Not promoted: select a call first</source>
        <translation>Nicht aufgenommen: zuerst einen Aufruf wählen</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>%1 of %2 calls</source>
        <translation>%1 von %2 Aufrufen</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>(the guardian changed nothing)</source>
        <translation>(der Wächter hat nichts geändert)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 — %2, iteration %3, sample %4 (temperature index %5)
</source>
        <translation>%1 — %2, Iteration %3, Stichprobe %4 (Temperaturindex %5)
</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pending</source>
        <translation>ausstehend</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>role %1, %2 tokens, %3 s, $%4%5
</source>
        <translation>Rolle %1, %2 Token, %3 s, $%4%5
</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>, from the cache</source>
        <translation>, aus dem Cache</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>finish reason %1</source>
        <translation>Abschlussgrund %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>resident rules used: %1</source>
        <translation>verwendete residente Regeln: %1</translation>
    </message>
</context>
<context>
    <name>sf::widgets::VerifySetsModel</name>
    <message>
        <location filename="../widgets/editor/issues_model.cpp" line="+24"/>
        <source>%1 (alternative sizes)</source>
        <translation>%1 (alternative Größen)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>pass</source>
        <translation>bestanden</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>FAIL</source>
        <translation>FEHLER</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Sizes</source>
        <translation>Größen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Max abs error</source>
        <translation>Max. abs. Fehler</translation>
    </message>
</context>
</TS>
