"""A bot for `cardavia match`: python bot.py 9000, then --seats strong,http://127.0.0.1:9000/"""

import json
import random
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer


class Bot(BaseHTTPRequestHandler):
    def do_POST(self):
        asked = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if "result" in asked:  # the deal is over: its settlement, or who forfeited and why
            return self.answer({})
        move = random.choice(asked["legal_moves"])  # and "game", "deal", "seat", "view"
        if "count" in move:  # a template: all of must_include, the rest from choose_from
            rest = random.sample(move["choose_from"], move["count"] - len(move["must_include"]))
            move = {"seat": move["seat"], "action": move["action"],
                    "cards": move["must_include"] + rest}
        self.answer({"move": move})

    def answer(self, data):
        body = json.dumps(data).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


HTTPServer(("127.0.0.1", int(sys.argv[1])), Bot).serve_forever()
