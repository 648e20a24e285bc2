"""Text in the XML bridgeproc writes (the workbook's sheets, USEBIO): the characters XML 1.0 cannot hold,
escaped or not. A file holding one is not XML, so no reader, bridgeproc's included, takes it; lxml refuses
to write one. Every writer shows such a character as U+FFFD, the replacement character, and says so."""
from __future__ import annotations

import re

#: C0 control characters but tab, newline and carriage return; lone surrogates; U+FFFE and U+FFFF.
UNWRITABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
#: What such a character is shown as.
REPLACEMENT = "\ufffd"
