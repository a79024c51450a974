"""How well names in Latin letters are read, on names the rules were not tuned on.

tests/test_name_readings_list.py holds the list the reading was built against (and checks
it scores at least 95%); this is a second list, written before any of its names was tried,
so its score says how the reading does on names nobody looked at. Run on demand:

    .venv/bin/python bench/name_readings.py          # the score, and each miss
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from narrator.sound.names import romaji_katakana

JAPANESE = {  # romaji → the readings a Japanese host accepts
    "Daisuke": "ダイスケ", "Kousuke": "コウスケ", "Kosuke": "コウスケ", "Shunsuke": "シュンスケ",
    "Yusuke": "ユウスケ", "Ryuji": "リュウジ", "Takuya": "タクヤ", "Naoki": "ナオキ", "Masato": "マサト",
    "Kazuki": "カズキ", "Haruka": "ハルカ", "Misaki": "ミサキ", "Ayumi": "アユミ", "Chihiro": "チヒロ",
    "Megumi": "メグミ", "Yumiko": "ユミコ", "Kyosuke": "キョウスケ", "Shunichi": "シュンイチ",
    "Yoshio": "ヨシオ", "Ichiro": "イチロウ", "Jiro": "ジロウ", "Goro": "ゴロウ", "Kenta": "ケンタ",
    "Sota": "ソウタ", "Yuma": "ユウマ", "Nakamura": "ナカムラ", "Kobayashi": "コバヤシ", "Endo": "エンドウ",
    "Kudo": "クドウ", "Ohashi": "オオハシ", "Oshima": "オオシマ オシマ", "Hotta": "ホッタ",
    "Matsumoto": "マツモト", "Shinya": "シンヤ", "Junko": "ジュンコ", "Kyohei": "キョウヘイ",
    "Koichi": "コウイチ", "Ryosuke": "リョウスケ", "Yūta": "ユウタ", "Ōta": "オオタ", "Shuhei": "シュウヘイ",
    "Tatsuya": "タツヤ",
}
WESTERN = {
    "Oliver": "オリバー オリヴァー", "Henry": "ヘンリー", "Samuel": "サミュエル", "Benjamin": "ベンジャミン",
    "Lucas": "ルーカス ルカス", "Mason": "メイソン", "Logan": "ローガン", "Jacob": "ジェイコブ ジェーコブ",
    "Grace": "グレース グレイス", "Chloe": "クロエ", "Lily": "リリー", "Ella": "エラ", "Amelia": "アメリア",
    "Isabella": "イザベラ", "Victoria": "ビクトリア ヴィクトリア", "Rachel": "レイチェル", "Laura": "ローラ",
    "Linda": "リンダ", "Susan": "スーザン", "Nancy": "ナンシー", "Kevin": "ケビン ケヴィン",
    "Brian": "ブライアン", "Eric": "エリック", "Mark": "マーク", "Frank": "フランク", "Alex": "アレックス",
    "Sam": "サム", "Tony": "トニー", "Kim": "キム", "Amy": "エイミー エミー", "Helen": "ヘレン",
    "Julia": "ジュリア", "Simon": "サイモン", "Edward": "エドワード", "Richard": "リチャード",
    "Joseph": "ジョセフ ジョゼフ", "Emily Brown": "エミリーブラウン", "Lisa": "リサ", "Adam": "アダム",
    "Sophia": "ソフィア", "Jason": "ジェイソン", "Ruby": "ルビー",
}


def misses(names: dict[str, str], read=romaji_katakana) -> list[str]:
    return [f"{name} → {read(name)} (accepted: {ok})" for name, ok in names.items() if read(name) not in ok.split()]


def main() -> None:
    total = missed = 0
    for label, names in (("japanese", JAPANESE), ("western", WESTERN)):
        found = misses(names)
        total, missed = total + len(names), missed + len(found)
        print(f"{label}: {1 - len(found) / len(names):.1%} of {len(names)}")
        for line in found:
            print(f"  {line}")
    print(f"held-out: {1 - missed / total:.1%} of {total}")


if __name__ == "__main__":
    main()
