/* Swift cannot import the function-like macro sd-journal.h puts over sd_journal_sendv (it adds
   the C caller's location); suppress it so the plain function is what Swift sees. The Swift
   side sends CODE_FILE/CODE_LINE/CODE_FUNC itself. */
#define SD_JOURNAL_SUPPRESS_LOCATION 1
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
