"""What :mod:`shinpan.files.csvio` tells an organiser about a player or pairing file: every
message, Japanese beside English, as str.format templates, by key."""

_SAVE_JA = "Excelなら「名前を付けて保存」で「CSV UTF-8（コンマ区切り）」を選んで保存し直してください。"
_SAVE_EN = ' In Excel, use Save As and choose "CSV UTF-8 (Comma delimited)".'
# Every message, Japanese beside English, as str.format templates.
# fmt: off
MESSAGES: dict[str, tuple[str, str]] = {
    "too_large": ("ファイルが大きすぎます（{mb:.1f} MB、上限は{limit} MB）。",
                  "The file is too large ({mb:.1f} MB; the limit is {limit} MB)."),
    "workbook": ("ExcelのブックなどでCSVファイルではありません。" + _SAVE_JA,
                 "This is an Excel workbook (or another zip file), not CSV." + _SAVE_EN),
    "utf16": ("UTF-16で保存されています。" + _SAVE_JA, "The file is UTF-16." + _SAVE_EN),
    "nul": ("NULバイトを含むため、テキストのCSVファイルではありません。" + _SAVE_JA,
            "The file contains NUL bytes, so it is not a text CSV file." + _SAVE_EN),
    "utf8_cut": ("UTF-8のファイルが文字の途中で切れています。ファイルが完全か確認してください。",
                 "The UTF-8 file ends in the middle of a character; check that the file is complete."),
    "utf8_bad": ("UTF-8（BOM付き）のファイルに、UTF-8として読めないバイトがあります。",
                 "The file starts as UTF-8 (with BOM) but has bytes that are not UTF-8."),
    "undecodable": ("UTF-8でもShift_JISでも読めない文字があります。" + _SAVE_JA,
                    "This text is neither UTF-8 nor Shift_JIS." + _SAVE_EN),
    "control": ("文字として使えないコード（U+{code:04X}）があり、テキストのCSVファイルではないようです。",
                "Unexpected character U+{code:04X}: this does not look like a text CSV file."),
    "empty": ("ファイルが空です。", "The file is empty."),
    "no_header": ("見出し行がありません。1行目に列名（例: 番号,名前,フリガナ,所属）を書き、"
                  "表題などの行は削除してください。",
                  "No header row: the first line must name the columns (e.g. number,name,reading,club);"
                  " delete any title rows above it."),
    "unknown_column": ("この列名は使えません。列名を直すか、列を削除してください。",
                       "unknown column; rename it or delete the column."),
    "duplicate_column": ("「{first}」と同じ列（{field}）が2回あります。どちらかを削除してください。",
                         "the same column as '{first}' ({field}) appears twice; delete one."),
    "missing_column": ("必要な列がありません。列を追加してください。", "required column is missing; add it."),
    "recognised": ("使える列名は次のとおりです。{ja}", "Recognised column names: {en}"),
    "unclosed_quote": ('この行で始まる引用符（"）が閉じられていません。ファイルが途中で切れているか、'
                       '値の中の " を "" と書く必要があります。',
                       'a quote (") opened in this row is never closed: the file may be cut short,'
                       ' or a " inside a value must be written as "".'),
    "bad_quote": ('引用符（"）の位置が正しくありません（{error}）。値全体を " で囲んでください。',
                  'a quote (") is misplaced ({error}); put quotes around the whole value.'),
    "long_field": ('値が長すぎて読めません。引用符（"）の閉じ忘れではありませんか。',
                   'a value is far too long to read; is a quote (") left open?'),
    "too_few": ("列が足りません（{n}列、見出しは{width}列）。行が途中で切れていないか確認してください。",
                "too few fields ({n}; the header has {width}); is the row cut short?"),
    "no_heading": ("見出しのない{n}列目に値「{value}」があります。余分なコンマはありませんか。",
                   "field {n} has a value ({value!r}) but no column heading; a stray comma?"),
    "empty_value": ("空です。値を入れてください。", "empty; fill it in."),
    "line_break": ("値の中に改行やタブがあります。", "the value contains a line break or tab."),
    "too_long": ("長すぎます（{n}文字、上限{limit}文字）。", "too long ({n} characters; at most {limit})."),
    "duplicate": ("「{value}」は{first}行目にもあります。重複しています。",
                  "{value!r} already appears on line {first}."),
    "registered": ("「{value}」はこの大会にすでに登録されています。",
                   "{value!r} is already registered at this event."),
    "hidden": ("見えない文字（{chars}）が入っています。IDには使えないため、その文字を除いてください。",
               "holds invisible characters ({chars}), which an id cannot hold; remove them."),
    "direction": ("文字の向きを変える制御文字（{chars}）が入っています。名前には使えないため、その文字を除いてください。",
                  "holds characters that change the direction of text ({chars}), which a name cannot hold;"
                  " remove them."),
    "not_kana": ("ひらがなかカタカナで書いてください（使えない文字:「{bad}」）。",
                 "write it in kana (hiragana or katakana); not allowed: {bad!r}."),
    "no_players": ("参加者が1人もいません（見出し行しかありません）。",
                   "There are no players: the file has only a header row."),
    "bad_table": ("卓番号は1以上の整数で書いてください（「{value}」）。",
                  "the table must be a whole number from 1 up ({value!r} is not)."),
    "bye_as_a": ("不戦勝はプレイヤーBの列に書き、ここにはプレイヤーを書いてください。",
                 "a bye goes in the player B column; put the player here."),
    "self_pairing": ("「{value}」が自分自身と対戦しています。", "{value!r} is paired against themself."),
    "no_pairings": ("対戦が1つもありません（見出し行しかありません）。",
                    "There are no pairings: the file has only a header row."),
    "more": ("…ほかに{n}件の問題があります。", "…and {n} more problems."),
    "stopped": ("…問題が多すぎるため、{at}行目で確認を打ち切りました。",
                "…too many problems: checking stopped at line {at}."),
}
# fmt: on
