"""`risk view`: a read-only web page of one game: the map, its replay, the log, the branch tree,
charts and the luck report.

* ``bundle`` gathers what the page shows, as one viewer (a seat, a player's seats, or a
  spectator) may see it: the redacted events told as log lines, and every version's position
  as small differences from the one before, so the page moves its slider without asking again;
* ``server`` serves the page and its data on loopback (GET only, one game's family only);
* ``page`` writes the HTML: linked to the server's assets, or one self-contained file
  (``risk view --export``) with the assets and the data inside;
* ``command`` is the click command.

The page's scripts and styles (``static/``) are plain JavaScript and CSS shipped in the
package: nothing is fetched from anywhere else.
"""
