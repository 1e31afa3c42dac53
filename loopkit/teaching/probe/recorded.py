"""A real run of the probe, recorded: what upstream's helpers gave on every claim when the probe ran on the two pinned
files, so that a chapter run without a network still shows a run (:func:`loopkit.teaching.probe.recorded_run`).

Written by ``tools/record_probe.py`` from a run of :func:`loopkit.teaching.probe.run_probe` on the files at commit
``f1f4af99bbf1cffb83a80744bf6e4a44ee8f24be``, read from a copy of the repository instead of downloaded; both passed the
sha256 check. These are facts observed on upstream's code (normalized arguments, keys, counts, digests) and what the
probe ran of each file, not upstream's code.
"""

from __future__ import annotations

__all__ = ["RECORDED_ON", "BATCHES", "SEED", "RAN", "UPSTREAM"]

#: The day the probe ran (UTC).
RECORDED_ON = '2026-12-05'
#: The generated batches the run observed, and their seed.
BATCHES, SEED = 300, 7

#: For each file: the definitions kept, the modules their imports named, and how many other statements did not run.
RAN: dict[str, dict] = {'loop_detection_middleware.py': {'kept': ('_normalize_tool_call_args', '_stable_tool_key', '_hash_tool_calls'),
                                  'imports': ('hashlib', 'json'),
                                  'not_run': 27},
 '_bounded_dict.py': {'kept': ('BoundedDict',), 'imports': ('collections.OrderedDict',), 'not_run': 2}}

#: What each claim observed on upstream's helpers, by the claim's English name, in the order of ``CLAIMS``.
UPSTREAM: dict[str, object] = {'JSON normalization': (({'path': 'a.py'}, None), ({'path': 'a.py'}, None), ({}, '[1, 2]'), ({}, '"text"'),
                        ({}, 'not json'), ({}, None), ({}, '7')),
 'read buckets': ('a.py:0-0', 'a.py:0-0', 'a.py:1-1', 'a.py:0-1', 'a.py:0-0'),
 'changed-write sensitivity': (True, True),
 'permutation invariance': (300, 300),
 'multiplicity': (300, 300),
 'insertion-order eviction': (('b', 2), ('c', 3)),
 'digest equality': ('a40ed22d4eb8', '95423d0581fe', '3219702ca52c', 'f204f932b4ee', '7f88b984c313', 'f633b56c248d',
                     '55d2271a6c0b', 'ad145f591057', '3caf4c454c94', '65bf9ab364cc', 'c8d9ed12285d', '74b0de3fc28c',
                     '7b6141df64d6', '118f13527181', '178345e4df50', '8e016ddff4a3', 'be5415153126', '94bd39601f74',
                     '27960da6185e', '702b13adbcf5', 'f4caf53bddd8', '95423d0581fe', '90134ae37f8e', '410324c0831c',
                     'bbc63ef90225', 'c8f110686c88', 'ad2c85e82b26', '5aa68d5ed05c', '9d39dc7a0972', '7a4c915f1bed',
                     '5bf49dd50346', '70c767696b57', 'bfc21978f0a9', '5ba2445c8b06', '29a6e75bb007', 'b7af295d1785',
                     '5dbe49b0ca70', '862067ef5a27', 'eedecc0184b5', '52459eb99d8a', '067fa4542885', '03e053ad4ebc',
                     'fcbf392e4c4d', '1ba1ce030f92', 'cb9c18931ae1', 'd14bc3ef606d', 'f0d3dbc98b91', 'fd57f3f1f3a0',
                     'f4ee17364e6a', '58172e498cbe', '6d0fafb8a7fc', '9a0597107f87', '486bb7649d35', 'c7a6700db9d7',
                     'fe313c73821c', '068bf285ac7b', '7aabb2d05ab5', 'b6b41dd60964', '95423d0581fe', '4bb631967353',
                     'bdcb057ec7b4', '25dc93c1aeea', '9d6031db8a01', '76fb8c5fe55f', 'baa8a240e68a', 'c46fddae812c',
                     'd57ff2d28699', '373ce088cd60', '885ad5cb9ed6', 'f3b91aa60ec0', '4d75bd955cbb', '0564a9bbccb6',
                     'e372e45f799b', '643ec0dc6f97', 'e06bec8e0f2e', 'dd151d7cd268', '6b3a205164aa', '7948edca488f',
                     '5f2bf017160f', '8a1f0fafdc57', '9d530c9f685c', '4451f39adefa', 'cacdc5126f3d', '3b99989228d4',
                     '984afd77e25e', 'ceeab8d736fa', 'fec1312a0281', '3e4e07750f93', '1850a7c28a36', '4ce725f5029d',
                     'cacdc5126f3d', '5e087bacd2ae', '654262a9b1bc', 'ef1b41d732af', '5b1d313f2ab7', '9e4e50514036',
                     'eeedcb8ea606', '30b368205fde', 'a090dc0b7cbd', '01d030fc3d75', 'dfa1e940b7ee', 'cee6ac66d37a',
                     '61abfba7730d', '450831e050e8', '9d90b53bf7ff', 'ad2c85e82b26', '8c934670e647', 'b45317255236',
                     '685f312a3647', 'ad2c85e82b26', '7ea241505242', '8520084b9547', '86723452fd0c', '665a35572b49',
                     'f6beee6c482c', 'e0e955149580', '817b0fce23f1', 'd9d9a98dad16', '4e48e8abb007', '6e33059e8ddc',
                     'bf34bfef1ed6', '5bab478abe41', 'f945631d98d8', 'a471ab18e8f5', 'a7d57756b330', '8acfd9e72b10',
                     '96b18ee42dfa', '9b660871b4da', '9439795ddb73', '7b7d624b6231', '114ccfab2d16', 'b6851c98b149',
                     'a97cbcc335f9', '33b302e70880', '7052041c4c99', '855b47b9846d', 'ac89a3db4c4b', '369c51b5b56c',
                     '9e586c0c64fb', '2a548ef90b3d', 'd38bf66cb3a7', '2b228475facf', '4c7eb6faa23b', 'b8a08ca255b3',
                     '71479a15946c', '69777c55662d', 'bdd7cf99e4ea', 'e372e45f799b', 'd7e762fe06f9', '2c9b2b87f80e',
                     '6888a79df49d', '5974633e9218', '91cbbc1a9da1', 'ffee14dd5345', '374a71d8325d', 'e2c83569173d',
                     'dd151d7cd268', 'a6867d35d02b', '78212d4306f1', 'df76eb99f4f3', '23ccc65dd7e7', '9b6a77a3613e',
                     'c7c158f66746', '99707652fd1b', '577c62814a7a', '8671c588d09d', '489c198e3af2', '622023250e1d',
                     '2333d0ec912d', 'fad2e677f29f', 'f1a0c72d0a64', '1f25fe81fa13', 'ac30e4c8d710', 'd495c350f165',
                     '5a1002918ac8', '2300557adf67', 'e372e45f799b', '3b988a25aee0', '9123c680497a', 'e8dd0d79f269',
                     'f252a626c96d', '200bbb056c18', 'fc447402adc4', '13f6344f1fab', '65e8d39eb798', '70e2f6b4f59b',
                     'fd2f160462b0', '23fc664a20a4', 'cdd9fc7d59bc', '5e1da9c81d09', '9177729b1f8e', 'e744b7cc617d',
                     'ef622e73585f', '8fb9793b57a7', '8fcfee17dde8', 'ec3f9e9c37fd', '2a5e35679515', '586cbd6b3532',
                     'e034763578b5', '012ccd3857a8', 'ec6115629afe', '93069f0cd8fa', '2a7539c712c1', 'bdb5f47a5d3d',
                     '89979de54454', 'e3ba6d8c7f86', 'dd9f9e7c2b05', '44f3dd091ecf', 'f983537ebd68', 'b69c223c0309',
                     '89b3faa9327c', '447cef2189e7', '6e39a6acee0a', 'e15e52c5e803', '0a5930c9c5d0', 'ef4a380e4b81',
                     '403bc4201678', 'ee39fca71206', 'aaa3cd555062', 'eba6a24a9e5a', 'cf3ea6e16d8c', '75428d0c46e7',
                     '7db3710d6916', 'd25df8eb105a', '28a36646559a', 'cfdefb2cfa8f', '12c1b75550d8', 'a548e2e4dd15',
                     '6b06bd29c185', 'b8db85c8ce21', 'f5accb84547c', 'bb6d4bcb84d9', 'fd14dcc51870', 'ad2c85e82b26',
                     '762faa6f4e98', '85d91e57c382', '964018c6659f', '0a729bdd117c', 'a21978b3a851', '80a777fdd957',
                     '61703c2de134', 'f0ae41e65055', '5b3cfd63f98f', 'e282b199996c', 'd36fb4de72a5', 'cebdaa943816',
                     '99236ec58d76', 'e02014018785', '92e3113b60c1', 'b3ec589c86b7', '0e6a6e744e64', 'bf6c9f22fb73',
                     'e9cb36dec0dd', 'af9810c06ef4', '06d9d47d4039', '8fdf5104e037', 'cb1207e99022', '95f8d20ab0fa',
                     '2336eddea1ec', 'aaedb81d3d65', '3e8dac479b25', 'ea20f93f94ab', 'e372e45f799b', '9123c680497a',
                     '178d45bc79e6', 'd1f0f71f608e', '9050fe8c2a0f', '7c9044ca273c', 'd377c48710ec', 'edf3a03f4aac',
                     '4006bb4f0d3a', 'a6ed38b52fee', '95423d0581fe', '2c6422b74d9f', '4ca3f5414e55', 'b94778bcbbdc',
                     '5eb1fdbece1e', '6ecfdae94df7', '6d054a9cf393', '6f4531b95b8a', 'd8950e702dac', 'e2d96d2b093f',
                     '4835a7e5dff5', '8b38cc721195', 'f8e082911f47', 'dd151d7cd268', 'f454bcbc3a60', '76140a5aad98',
                     '30b395e8219d', '29750a64866a', 'c1265ffcf277', 'ce86b71a6065', 'e452d9d08f97', 'f16f7b76f610',
                     '38af6da1ef10', '400bd7cb385e', 'ec8a76809c69', 'f28ff7743531', '63ec54499907',
                     '4c9e385aa5a9')}
